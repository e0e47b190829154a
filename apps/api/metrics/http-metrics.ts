import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { PylonMetrics } from '@pylon/metrics';

/** The route label of a request no route matched: one label, so unknown URLs cannot grow the metric. */
export const UNMATCHED_ROUTE = '(unmatched)';

/** The route template a request matched, e.g. `/api/v1/agent-runs/:runId`: never the raw URL with its ids. */
export function routeLabel(request: Pick<FastifyRequest, 'routeOptions'>): string {
  return request.routeOptions?.url || UNMATCHED_ROUTE;
}

/** Times every response into `http_request_duration_seconds` by method, route template and status. */
export function registerHttpMetrics(fastify: FastifyInstance, metrics: PylonMetrics): void {
  fastify.addHook('onResponse', (request, reply, done) => {
    metrics.observeHttpRequest(request.method, routeLabel(request), reply.statusCode, reply.elapsedTime / 1_000);
    done();
  });
}
