import type { RequestOptions, Transport } from '../transport.js';
import type { ResponseBody } from '../types.js';

export type UsageReport = ResponseBody<'/api/v1/usage', 'get'>;

/**
 * What happened in the organisation over the last 24 hours and 30 days: runs, documents, videos, webhook
 * deliveries, tokens, failing endpoints, the newest failures and each key's requests. Any key may ask; each
 * section is present only when the key has its scope.
 */
export class Usage {
  constructor(private readonly transport: Transport) {}

  get(options: RequestOptions = {}): Promise<UsageReport> {
    return this.transport.request('GET', '/api/v1/usage', options);
  }
}
