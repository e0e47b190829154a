import type { FastifyInstance } from 'fastify';
import { PylonError, ErrorCode } from '@pylon/contracts';

/**
 * A request that reaches the server once it has begun to close (on a connection that was busy then,
 * so not closed with the idle ones) is refused with 503 `service_unavailable`, for the client to retry
 * elsewhere. Fastify's own `return503OnClosing` would answer with a body of its own shape.
 */
export function refuseRequestsWhileClosing(fastify: FastifyInstance): void {
  let closing = false;
  fastify.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  fastify.addHook('onRequest', (_request, _reply, done) =>
    done(closing ? new PylonError(ErrorCode.ServiceUnavailable, 'the server is shutting down') : undefined),
  );
}
