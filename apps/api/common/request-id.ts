import type { FastifyInstance } from 'fastify';
import { REQUEST_ID_HEADER } from '@pylon/logging';

/** Every response, errors and unknown routes included, tells the caller its request id. */
export function echoRequestId(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
}
