import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../common/api-error';

/** Who is calling: an organisation's API key. */
export interface Principal {
  orgId: string;
  keyId: string;
  scopes: readonly string[];
  /** The key's own rate limit; null: the configured default. */
  rateLimit: { perSecond: number | null; burst: number | null };
  /** Presented with the secret the key had before its last roll, still accepted during the grace period. */
  withPreviousSecret: boolean;
}

export type AuthenticatedRequest = FastifyRequest & { principal?: Principal };

export const CurrentPrincipal = createParamDecorator((_: unknown, context: ExecutionContext): Principal => {
  const principal = context.switchToHttp().getRequest<AuthenticatedRequest>().principal;
  if (!principal) throw new Error('CurrentPrincipal used on a route without API key authentication');
  return principal;
});

/** An `org_id` named in a request must be the caller's own: otherwise 403 `insufficient_scope`. */
export function assertOwnOrg(principal: Principal, orgId: string): void {
  if (principal.orgId !== orgId) throw ApiError.insufficientScope('org_id is not the organisation of this API key');
}
