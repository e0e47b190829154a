import { PylonError } from '@pylon/contracts';
import { type ValidationError, ValidationPipe } from '@nestjs/common';
import { strictTransformer } from './strict-transformer';

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

/**
 * Nest's ValidationPipe, without its deletion of `constructor` and `prototype` keys from the body in
 * place: that made an extra property of those names pass the whitelist unseen and dropped them from
 * free-form metadata silently. The body parser already refuses `__proto__` and `constructor.prototype`,
 * and strictTransformer refuses every key a DTO does not declare.
 */
class StrictValidationPipe extends ValidationPipe {
  protected override stripProtoKeys(): void {}
}

/**
 * class-validator DTOs, strictly: no unknown properties whatever their names, free-form JSON kept as
 * sent, no type coercion except where a DTO asks (see strictTransformer).
 */
export function createValidationPipe(): ValidationPipe {
  return new StrictValidationPipe({
    transform: true,
    transformerPackage: strictTransformer,
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    transformOptions: { enableImplicitConversion: false },
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => PylonError.invalidRequest(firstProblem(errors)),
  });
}

/** The one validation pipe of request bodies, query strings and form fields (stateless, so shared). */
export const requestValidation = createValidationPipe();
