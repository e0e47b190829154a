import { type ValidationError, ValidationPipe } from '@nestjs/common';
import { ApiError } from './api-error';

/**
 * When a field breaks several rules, the one to tell: that it should not be there, then that it is
 * missing, then that it has the wrong type; its range or format only after those. (class-validator
 * lists a field's failed rules in no useful order: a missing `user_prompt` read "must be shorter than
 * or equal to 2000 characters", and `limit=ten` "must not be greater than 100".)
 */
const RULES_TOLD_FIRST = [
  'whitelistValidation',
  'isDefined',
  'isNotEmpty',
  'isString',
  'isInt',
  'isNumber',
  'isBoolean',
  'isArray',
  'isObject',
  'nestedValidation',
  'isUuid',
  'isEnum',
  'isIn',
];

function rank(rule: string): number {
  const index = RULES_TOLD_FIRST.indexOf(rule);
  return index === -1 ? RULES_TOLD_FIRST.length : index;
}

/** The message of the most fundamental rule a field broke (see RULES_TOLD_FIRST). */
export function mainConstraint(constraints: Record<string, string>): string | undefined {
  const rules = Object.keys(constraints);
  if (rules.length === 0) return undefined;
  const main = rules.reduce((best, rule) => (rank(rule) < rank(best) ? rule : best));
  return constraints[main];
}

/** The first field's problem as one line for Error-Detail, with the field's path (`a.b: …`). */
export function firstProblem(errors: ValidationError[], path = ''): string {
  for (const error of errors) {
    const field = path ? `${path}.${error.property}` : error.property;
    const constraint = error.constraints && mainConstraint(error.constraints);
    if (constraint) return constraint.startsWith(error.property) ? `${path ? `${path}.` : ''}${constraint}` : `${field}: ${constraint}`;
    if (error.children?.length) return firstProblem(error.children, field);
  }
  return 'request invalid';
}

/** class-validator DTOs, strictly: no unknown properties, no type coercion except where a DTO asks. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    transform: true,
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    transformOptions: { enableImplicitConversion: false },
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => ApiError.invalidRequest(firstProblem(errors)),
  });
}
