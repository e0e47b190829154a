import { Injectable } from '@nestjs/common';

export type LimitName =
  'api_key_rate' | 'queued_runs' | 'queued_documents' | 'test_events_per_minute' | 'webhook_endpoints' | 'event_streams_per_key';

/**
 * Counts what the limits refused, and how often their store failed (the request was let through).
 * `onRejected` is the hook for a metrics library (e.g. a prom-client counter), set once at start-up.
 */
@Injectable()
export class RateLimitMetrics {
  readonly rejections: Record<LimitName, number> = {
    api_key_rate: 0,
    queued_runs: 0,
    queued_documents: 0,
    test_events_per_minute: 0,
    webhook_endpoints: 0,
    event_streams_per_key: 0,
  };
  storeErrors = 0;
  onRejected: ((limit: LimitName) => void) | undefined;

  rejected(limit: LimitName): void {
    this.rejections[limit]++;
    this.onRejected?.(limit);
  }
}
