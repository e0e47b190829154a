import cluster, { type Worker } from 'node:cluster';
import { AggregatorRegistry, type Registry } from 'prom-client';

/**
 * /metrics for API replicas behind one port (Node's cluster module, `npm run start:cluster`): whichever
 * replica a scrape reaches asks the primary, which gathers every replica's registry over IPC with
 * prom-client's AggregatorRegistry (counters and histograms summed; gauges by their own aggregator).
 * Without a primary (one API process) the process answers for itself.
 */

const REQUEST = 'pylon:cluster-metrics-request';
const RESPONSE = 'pylon:cluster-metrics-response';
const ANSWER_WITHIN_MS = 5_000;

interface MetricsRequest {
  type: typeof REQUEST;
  id: number;
}

interface MetricsResponse {
  type: typeof RESPONSE;
  id: number;
  text?: string;
  error?: string;
}

/** In a replica: hands this registry to the primary's aggregation. */
export function shareWithClusterPrimary(registry: Registry): void {
  if (!cluster.isWorker) return;
  new AggregatorRegistry(); // installs prom-client's answer to the primary's requests
  AggregatorRegistry.setRegistries([registry]);
}

let nextRequest = 0;

/** In a replica: the aggregate of every replica's metrics, from the primary; null outside a cluster. */
export function clusterMetricsText(): Promise<string> | null {
  if (!cluster.isWorker || !process.send) return null;
  const id = nextRequest++;
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => finish(new Error('the primary did not answer with the replicas’ metrics in time')), ANSWER_WITHIN_MS);
    const onMessage = (message: unknown) => {
      const response = message as MetricsResponse;
      if (response?.type !== RESPONSE || response.id !== id) return;
      finish(response.error === undefined ? null : new Error(response.error), response.text);
    };
    const finish = (error: Error | null, text?: string) => {
      clearTimeout(timer);
      process.off('message', onMessage);
      if (error) reject(error);
      else resolve(text ?? '');
    };
    process.on('message', onMessage);
    process.send!({ type: REQUEST, id } satisfies MetricsRequest);
  });
}

/** In the primary: answers each replica's request with the aggregate of all of them. */
export function serveClusterMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker: Worker, message: unknown) => {
    const request = message as MetricsRequest;
    if (request?.type !== REQUEST) return;
    aggregator.clusterMetrics().then(
      (text) => worker.isConnected() && worker.send({ type: RESPONSE, id: request.id, text } satisfies MetricsResponse),
      (error: Error) => worker.isConnected() && worker.send({ type: RESPONSE, id: request.id, error: error.message } satisfies MetricsResponse),
    );
  });
}
