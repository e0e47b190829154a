import { PylonError } from '@pylon/contracts';
import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { Principal } from '@pylon/api-keys';

export type { Principal };

export type AuthenticatedRequest = FastifyRequest & { principal?: Principal };

export const CurrentPrincipal = createParamDecorator((_: unknown, context: ExecutionContext): Principal => {
  const principal = context.switchToHttp().getRequest<AuthenticatedRequest>().principal;
  if (!principal) throw new Error('CurrentPrincipal used on a route without API key authentication');
  return principal;
});

/** An `org_id` named in a request must be the caller's own: otherwise 403 `insufficient_scope`. */
export function assertOwnOrg(principal: Principal, orgId: string): void {
  if (principal.orgId !== orgId) throw PylonError.insufficientScope('org_id is not the organisation of this API key');
}
