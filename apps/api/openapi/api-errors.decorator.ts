import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { ErrorBody } from '../common/error-body.dto';

const DESCRIPTIONS: Record<number, string> = {
  400: 'invalid_request: the request is malformed or fails validation',
  401: 'missing_api_key or invalid_api_key',
  403: 'insufficient_scope: the key lacks the scope, or org_id is not its organisation',
  404: 'not_found',
  409: 'conflict with the current state, or limit_exceeded: a count of the organisation is at its cap (waiting does not change it)',
  413: 'payload_too_large: the body exceeds the limit',
  500: 'internal_error, or a more specific server-side code',
};

/** Documents the `{"error": "<code>"}` responses of an operation; 500 is always possible. */
export function ApiErrors(...statuses: number[]): MethodDecorator {
  return applyDecorators(
    ...[...new Set([...statuses, 500])].map((status) => ApiResponse({ status, description: DESCRIPTIONS[status] ?? 'error', type: ErrorBody })),
  );
}
