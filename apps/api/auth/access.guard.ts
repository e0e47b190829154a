import { createHash, timingSafeEqual } from 'node:crypto';
import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply } from 'fastify';
import { ErrorCode, PylonError } from '@pylon/contracts';
import { PylonConfig } from '@pylon/config';
import { LimitsService, type RateDecision } from '@pylon/limits';
import { ACCESS_RULE, type AccessRule } from './access.decorators';
import { ApiKeyService } from '@pylon/api-keys';
import { bearerToken } from './bearer-token';
import type { AuthenticatedRequest, Principal } from './principal';
import { rateLimitHeaders } from './rate-limit-headers';
import { ApiError } from '../common/api-error';

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

  /** Synchronous for a key this process verified lately with tokens in hand, as most requests are: no promise on that path. */
  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const rule = this.reflector.getAllAndOverride<AccessRule | undefined>(ACCESS_RULE, [context.getHandler(), context.getClass()]);
    if (!rule) throw new Error(`route ${context.getClass().name}.${context.getHandler().name} declares no access rule`);
    if (rule.kind === 'public') return true;

    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    // Node keeps the first of several Authorization headers and drops the rest: which one a proxy
    // in front would have used is anyone's guess, so a request with more than one is refused.
    if (authorizationHeaders(request.raw.rawHeaders) > 1) throw PylonError.invalidRequest('the request has more than one Authorization header');
    const token = bearerToken(request.headers.authorization);
    if (rule.kind === 'admin') {
      const adminToken = this.config.adminToken;
      if (!adminToken || !timingSafeEqual(sha256(adminToken), sha256(token))) {
        throw new PylonError(ErrorCode.InvalidApiKey, 'not the admin token');
      }
      return true;
    }
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    const principal = this.apiKeys.authenticate(token);
    return principal instanceof Promise
      ? principal.then((known) => this.admit(known, rule, request, reply))
      : this.admit(principal, rule, request, reply);
  }

  /** Counts the request against the key's rate, then checks the route's scope. */
  private admit(principal: Principal, rule: AccessRule, request: AuthenticatedRequest, reply: FastifyReply): boolean | Promise<boolean> {
    const decision = this.limits.admitKeyRequest(principal.keyId, principal.rateLimit);
    return decision instanceof Promise
      ? decision.then((taken) => this.grant(principal, taken, rule, request, reply))
      : this.grant(principal, decision, rule, request, reply);
  }

  private grant(principal: Principal, decision: RateDecision | null, rule: AccessRule, request: AuthenticatedRequest, reply: FastifyReply): true {
    this.applyRate(principal, decision, reply);
    if (rule.kind === 'scope') this.apiKeys.authorize(principal, rule.scope);
    request.principal = principal;
    return true;
  }

  /** RateLimit-* headers on the response, or 429 `rate_limited` past the key's rate (nothing if the store failed). */
  private applyRate(principal: Principal, decision: RateDecision | null, reply: FastifyReply): void {
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
