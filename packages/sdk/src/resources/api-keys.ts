import { Paginated } from '../pagination.js';
import type { RequestOptions, Transport } from '../transport.js';
import type { Page, RequestBody, ResponseBody } from '../types.js';

export type ApiKey = ResponseBody<'/api/v1/api-keys', 'get'>['data'][number];

const path = (keyId: string) => `/api/v1/api-keys/${encodeURIComponent(keyId)}`;

/** The organisation's own API keys (scope keys:manage); `whoami` works with any key. */
export class ApiKeys {
  constructor(private readonly transport: Transport) {}

  /** A new key; its secret is in this answer only. */
  create(body: RequestBody<'/api/v1/api-keys', 'post'>, options: RequestOptions = {}): Promise<ResponseBody<'/api/v1/api-keys', 'post'>> {
    return this.transport.request('POST', '/api/v1/api-keys', { ...options, body });
  }

  list(params: { limit?: number } = {}, options: RequestOptions = {}): Paginated<ApiKey> {
    return new Paginated((cursor) => this.transport.request<Page<ApiKey>>('GET', '/api/v1/api-keys', { ...options, query: { ...params, cursor } }));
  }

  /** A new secret; the old one works for the grace period, but cannot manage keys. */
  roll(
    keyId: string,
    body: RequestBody<'/api/v1/api-keys/{key_id}/roll', 'post'> = {},
    options: RequestOptions = {},
  ): Promise<ResponseBody<'/api/v1/api-keys/{key_id}/roll', 'post'>> {
    return this.transport.request('POST', `${path(keyId)}/roll`, { ...options, body });
  }

  revoke(keyId: string, options: RequestOptions = {}): Promise<ResponseBody<'/api/v1/api-keys/{key_id}', 'delete'>> {
    return this.transport.request('DELETE', path(keyId), options);
  }

  /** The key this client uses: its organisation and scopes. */
  whoami(options: RequestOptions = {}): Promise<ResponseBody<'/api/v1/whoami', 'get'>> {
    return this.transport.request('GET', '/api/v1/whoami', options);
  }
}
