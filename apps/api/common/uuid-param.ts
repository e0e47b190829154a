import { Param, ParseUUIDPipe, type PipeTransform } from '@nestjs/common';
import { ApiParam } from '@nestjs/swagger';
import { ApiError } from './api-error';

/**
 * UUIDs are case-insensitive; Pylon writes them in lower case, in its rows, its workflow ids and its
 * answers, so an id given in upper case is turned into that one id before it is compared or named.
 */
const inLowerCase: PipeTransform<string, string> = { transform: (value) => value.toLowerCase() };

/** A path parameter that must be a UUID (in either case); anything else is 400 `invalid_request`. */
export function UuidParam(name: string): ParameterDecorator {
  return Param(
    name,
    new ParseUUIDPipe({ exceptionFactory: () => ApiError.invalidRequest(`${name} must be a UUID`) }),
    inLowerCase,
  );
}

/** Documents a UUID path parameter in OpenAPI. */
export function ApiUuidParam(name: string): MethodDecorator {
  return ApiParam({ name, required: true, schema: { type: 'string', format: 'uuid' } });
}
