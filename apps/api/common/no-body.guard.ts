import { PylonError } from '@pylon/contracts';
import { CanActivate, ExecutionContext, Injectable, UseGuards, applyDecorators } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';

/**
 * A command that takes no body (cancel, send a test, retry) refuses one with 400, rather than ignoring
 * whatever was sent: a client that sends fields expects them to mean something. Checked after
 * authentication (global guards run first).
 */
@Injectable()
class NoBodyGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const { headers } = context.switchToHttp().getRequest<FastifyRequest>();
    const length = Number(headers['content-length'] ?? 0);
    if (length > 0 || headers['transfer-encoding'] !== undefined) throw PylonError.invalidRequest('this request takes no body');
    return true;
  }
}

export const NoBody = () => applyDecorators(UseGuards(NoBodyGuard));
