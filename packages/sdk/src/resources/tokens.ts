import { Paginated } from '../pagination.js';
import type { RequestOptions, Transport } from '../transport.js';
import type { Page, QueryParams, ResponseBody } from '../types.js';

export type TokenEntry = ResponseBody<'/api/v1/tokens/entries', 'get'>['data'][number];

/** The organisation's token ledger: its balance and every grant, debit and refund. */
export class Tokens {
  constructor(private readonly transport: Transport) {}

  balance(options: RequestOptions = {}): Promise<ResponseBody<'/api/v1/tokens/balance', 'get'>> {
    return this.transport.request('GET', '/api/v1/tokens/balance', options);
  }

  entries(params: Omit<QueryParams<'/api/v1/tokens/entries', 'get'>, 'cursor'> = {}, options: RequestOptions = {}): Paginated<TokenEntry> {
    return new Paginated((cursor) =>
      this.transport.request<Page<TokenEntry>>('GET', '/api/v1/tokens/entries', { ...options, query: { ...params, cursor } }),
    );
  }
}
