import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PylonMetrics } from '@pylon/metrics';

/** `GET /metrics` in Prometheus text format, nothing else: the worker's only HTTP port, off unless configured. */
export async function serveMetrics(metrics: PylonMetrics, host: string, port: number): Promise<Server> {
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    metrics.render().then(
      (text) => response.writeHead(200, { 'content-type': metrics.contentType }).end(request.method === 'HEAD' ? undefined : text),
      () => response.writeHead(500, { 'content-type': 'text/plain' }).end('metrics unavailable\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}

export function metricsUrl(server: Server): string {
  const { address, port } = server.address() as AddressInfo;
  return `http://${hostPort(address, port)}/metrics`;
}

/** `host:port`, with an IPv6 host in brackets. */
export function hostPort(host: string, port: number): string {
  return `${host.includes(':') ? `[${host}]` : host}:${port}`;
}
