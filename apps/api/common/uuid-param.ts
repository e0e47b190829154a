import { PylonError } from '@pylon/contracts';
import { Param, ParseUUIDPipe } from '@nestjs/common';
import { ApiParam } from '@nestjs/swagger';
import { inLowerCase } from './uuid';

/** A path parameter that must be a UUID (in either case), taken in lower case; anything else is 400 `invalid_request`. */
export function UuidParam(name: string): ParameterDecorator {
  return Param(name, new ParseUUIDPipe({ exceptionFactory: () => PylonError.invalidRequest(`${name} must be a UUID`) }), { transform: inLowerCase });
}

/** Documents a UUID path parameter in OpenAPI. */
export function ApiUuidParam(name: string): MethodDecorator {
  return ApiParam({ name, required: true, schema: { type: 'string', format: 'uuid' } });
}
