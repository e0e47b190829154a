import type { RequestOptions, Transport } from '../transport.js';
import type { RequestBody, ResponseBody } from '../types.js';

export type ModelCredential = ResponseBody<'/api/v1/model-credentials/{provider}', 'put'>;

const path = (provider: string) => `/api/v1/model-credentials/${encodeURIComponent(provider)}`;

/**
 * The organisation's own model-provider keys (scope `*`): its runs on a provider with a key here use it, and the
 * server's prices do not apply to them. Keys are sealed at rest; every answer shows them masked.
 */
export class ModelCredentials {
  constructor(private readonly transport: Transport) {}

  list(options: RequestOptions = {}): Promise<ResponseBody<'/api/v1/model-credentials', 'get'>> {
    return this.transport.request('GET', '/api/v1/model-credentials', options);
  }

  /** Sets (or replaces) the key for `provider`; the same key again answers the same, so it is retried like a read. */
  put(provider: string, body: RequestBody<'/api/v1/model-credentials/{provider}', 'put'>, options: RequestOptions = {}): Promise<ModelCredential> {
    return this.transport.request('PUT', path(provider), { ...options, body, repeatable: true });
  }

  /** Removes the key: the organisation's runs on `provider` go back to the server's key, if it shares one. */
  remove(provider: string, options: RequestOptions = {}): Promise<void> {
    return this.transport.request('DELETE', path(provider), options);
  }

  /** Whether the provider accepts the key, by one call that costs nothing (listing its models). */
  check(provider: string, options: RequestOptions = {}): Promise<ResponseBody<'/api/v1/model-credentials/{provider}/check', 'post'>> {
    return this.transport.request('POST', `${path(provider)}/check`, { ...options, repeatable: true });
  }
}
