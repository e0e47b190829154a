import { PylonError } from '@pylon/contracts';
import { CanActivate, ExecutionContext, Injectable, Query } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { requestValidation } from './validation.pipe';

const TAKES_QUERY = 'pylon:takes-query-parameters';

/** `@Query()` for an operation's DTO of query parameters, validated; it also tells StrictQuery that the operation takes some. */
export function QueryParams(): ParameterDecorator {
  return (target, method, index) => {
    Query(requestValidation)(target, method, index);
    Reflect.defineMetadata(TAKES_QUERY, true, target, method!);
  };
}

/**
 * Every query parameter a request sends is one its operation takes, or the request is 400: an operation
 * without a `@QueryParams()` DTO takes none, and with one, the DTO's validation refuses the names it
 * does not know. What the query parser drops before validation sees it (`__proto__[x]`, `constructor`)
 * is refused here too, instead of being ignored. A global guard registered after AccessGuard, so
 * authentication is told first; a guard rather than an interceptor, so no request pays for an
 * interceptor chain (Nest builds one of RxJS observables per request when any interceptor is global).
 */
@Injectable()
export class StrictQuery implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const names = sentParameterNames(request.url);
    if (names.length > 0) {
      if (!Reflect.getMetadata(TAKES_QUERY, context.getClass().prototype, context.getHandler().name)) {
        throw PylonError.invalidRequest(`this operation takes no query parameters (got ${JSON.stringify(names[0])})`);
      }
      const parsed = request.query as Record<string, unknown>;
      const dropped = names.find((name) => !Object.hasOwn(parsed, name));
      if (dropped !== undefined) throw PylonError.invalidRequest(`query parameter ${JSON.stringify(dropped)} is not taken by this operation`);
    }
    return true;
  }
}

/** The names of the query string as sent, each without its brackets (`ids[0]` is `ids`). */
function sentParameterNames(url: string): string[] {
  const start = url.indexOf('?');
  if (start === -1) return [];
  const names = new Set<string>();
  for (const key of new URLSearchParams(url.slice(start + 1)).keys()) {
    const bracket = key.indexOf('[');
    names.add(bracket === -1 ? key : key.slice(0, bracket));
  }
  return [...names];
}
