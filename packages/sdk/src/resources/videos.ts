import { newIdempotencyKey, type RequestOptions, type Transport } from '../transport.js';
import type { RequestBody, ResponseBody } from '../types.js';

export type VideoGeneration = ResponseBody<'/v1/video-gen/generations', 'post'>;

const path = (id: string) => `/v1/video-gen/generations/${encodeURIComponent(id)}`;

/** Video generations, paid from the token ledger (refunded if they fail). */
export class Videos {
  constructor(private readonly transport: Transport) {}

  /** Starts a generation and charges its tokens, once however often it is retried. */
  create(body: RequestBody<'/v1/video-gen/generations', 'post'>, options: RequestOptions = {}): Promise<VideoGeneration> {
    return this.transport.request('POST', '/v1/video-gen/generations', {
      ...options,
      body,
      idempotencyKey: options.idempotencyKey ?? newIdempotencyKey(),
    });
  }

  /** The generations with these ids (the API's `GET /v1/video-gen/generation?ids[]=…`). */
  get(ids: readonly string[], options: RequestOptions = {}): Promise<ResponseBody<'/v1/video-gen/generation', 'get'>> {
    return this.transport.request('GET', '/v1/video-gen/generation', { ...options, query: { ids } });
  }

  /** A new generation continuing a completed one. */
  extend(id: string, body: RequestBody<'/v1/video-gen/generations/{taskId}/extend', 'post'>, options: RequestOptions = {}): Promise<VideoGeneration> {
    return this.transport.request('POST', `${path(id)}/extend`, { ...options, body, idempotencyKey: options.idempotencyKey ?? newIdempotencyKey() });
  }

  /** Stops a generation; its tokens come back once. */
  cancel(id: string, options: RequestOptions = {}): Promise<ResponseBody<'/v1/video-gen/generations/{taskId}/cancel', 'post'>> {
    return this.transport.request('POST', `${path(id)}/cancel`, { ...options, repeatable: true });
  }
}
