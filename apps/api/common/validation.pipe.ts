import { ValidationError, ValidationPipe } from '@nestjs/common';
import { ApiError } from './api-error';

function firstProblem(errors: ValidationError[], path = ''): string {
  for (const error of errors) {
    const field = path ? `${path}.${error.property}` : error.property;
    const constraint = error.constraints && Object.values(error.constraints)[0];
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
