import type { FastifyReply, FastifyRequest } from 'fastify';

/** Why a response's wait or stream stops following its run: its client went away. */
const CLIENT_GONE = new Error('the client closed the connection');

/** Aborted when the client goes away, which ends the wait or the stream. */
export function clientGone(request: FastifyRequest, reply: FastifyReply): AbortSignal {
  const gone = new AbortController();
  request.raw.once('close', () => gone.abort(CLIENT_GONE));
  reply.raw.once('close', () => gone.abort(CLIENT_GONE));
  return gone.signal;
}
