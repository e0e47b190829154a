import { createHash, timingSafeEqual } from 'node:crypto';
import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply } from 'fastify';
import { ErrorCode } from '@pylon/contracts';
import { PylonConfig } from '@pylon/config';
import { LimitsService } from '@pylon/limits';
import { ApiError } from '../common/api-error';
import { ACCESS_RULE, type AccessRule } from './access.decorators';
import { ApiKeyService } from '@pylon/api-keys';
import { bearerToken } from './bearer-token';
import type { AuthenticatedRequest, Principal } from './principal';
import { rateLimitHeaders } from './rate-limit-headers';

function sha256(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/**
 * Every route declares its access rule; a route without one is refused (deny by default).
 * Unknown routes never reach this guard and answer 404. A request with an API key counts against the
 * key's rate limit once the key is known, before its scope is checked.
 */
@Injectable()
export class AccessGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly apiKeys: ApiKeyService,
    private readonly config: PylonConfig,
    private readonly limits: LimitsService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const rule = this.reflector.getAllAndOverride<AccessRule | undefined>(ACCESS_RULE, [context.getHandler(), context.getClass()]);
    if (!rule) throw new Error(`route ${context.getClass().name}.${context.getHandler().name} declares no access rule`);
    if (rule.kind === 'public') return true;

    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    // Node keeps the first of several Authorization headers and drops the rest: which one a proxy
    // in front would have used is anyone's guess, so a request with more than one is refused.
    if (authorizationHeaders(request.raw.rawHeaders) > 1) throw ApiError.invalidRequest('the request has more than one Authorization header');
    const token = bearerToken(request.headers.authorization);
    if (rule.kind === 'admin') {
      const adminToken = this.config.adminToken;
      if (!adminToken || !timingSafeEqual(sha256(adminToken), sha256(token))) {
        throw new ApiError(ErrorCode.InvalidApiKey, 'not the admin token');
      }
      return true;
    }
    const principal = await this.apiKeys.authenticate(token);
    await this.admitRate(principal, context.switchToHttp().getResponse<FastifyReply>());
    if (rule.kind === 'scope') this.apiKeys.authorize(principal, rule.scope);
    request.principal = principal;
    return true;
  }

  /** RateLimit-* headers on the response, or 429 `rate_limited` past the key's rate (nothing if the store failed). */
  private async admitRate(principal: Principal, reply: FastifyReply): Promise<void> {
    const decision = await this.limits.admitKeyRequest(principal.keyId, principal.rateLimit);
    if (!decision) return;
    const headers = rateLimitHeaders(decision);
    if (!decision.allowed) {
      const rate = this.limits.keyRate(principal.rateLimit);
      throw new ApiError(
        ErrorCode.RateLimited,
        `this API key may send ${rate.perSecond} requests per second, ${rate.burst} at once; retry in ${decision.retryAfterSeconds} s`,
        headers,
      );
    }
    reply.headers(headers);
  }
}

function authorizationHeaders(rawHeaders: string[]): number {
  let count = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i]!.toLowerCase() === 'authorization') count++;
  return count;
}
