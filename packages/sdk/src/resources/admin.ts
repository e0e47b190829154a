import { Paginated } from '../pagination.js';
import { newIdempotencyKey, type RequestOptions, type Transport } from '../transport.js';
import type { Page, RequestBody, ResponseBody } from '../types.js';

export type Organisation = ResponseBody<'/admin/v1/orgs', 'get'>['data'][number];
/** An organisation's own model prices (`organisation`) and the server's `MODEL_PRICES` (`configured`), in service tokens per 1 000 tokens. */
export type ModelPrices = ResponseBody<'/admin/v1/orgs/{org_id}/model-prices', 'get'>;
export type ModelPricesReplace = RequestBody<'/admin/v1/orgs/{org_id}/model-prices', 'put'>;

const orgPath = (orgId: string) => `/admin/v1/orgs/${encodeURIComponent(orgId)}`;
const keyPath = (keyId: string) => `/admin/v1/api-keys/${encodeURIComponent(keyId)}`;

/** The operator's API (with the admin token as the client's apiKey): organisations, their keys, limits and tokens. */
export class Admin {
  constructor(private readonly transport: Transport) {}

  createOrg(body: RequestBody<'/admin/v1/orgs', 'post'>, options: RequestOptions = {}): Promise<ResponseBody<'/admin/v1/orgs', 'post'>> {
    return this.transport.request('POST', '/admin/v1/orgs', { ...options, body });
  }

  listOrgs(params: { limit?: number } = {}, options: RequestOptions = {}): Paginated<Organisation> {
    return new Paginated((cursor) =>
      this.transport.request<Page<Organisation>>('GET', '/admin/v1/orgs', { ...options, query: { ...params, cursor } }),
    );
  }

  createApiKey(
    orgId: string,
    body: RequestBody<'/admin/v1/orgs/{org_id}/api-keys', 'post'>,
    options: RequestOptions = {},
  ): Promise<ResponseBody<'/admin/v1/orgs/{org_id}/api-keys', 'post'>> {
    return this.transport.request('POST', `${orgPath(orgId)}/api-keys`, { ...options, body });
  }

  listApiKeys(
    orgId: string,
    params: { limit?: number } = {},
    options: RequestOptions = {},
  ): Paginated<ResponseBody<'/admin/v1/orgs/{org_id}/api-keys', 'get'>['data'][number]> {
    return new Paginated((cursor) => this.transport.request('GET', `${orgPath(orgId)}/api-keys`, { ...options, query: { ...params, cursor } }));
  }

  rollApiKey(
    keyId: string,
    body: RequestBody<'/admin/v1/api-keys/{key_id}/roll', 'post'> = {},
    options: RequestOptions = {},
  ): Promise<ResponseBody<'/admin/v1/api-keys/{key_id}/roll', 'post'>> {
    return this.transport.request('POST', `${keyPath(keyId)}/roll`, { ...options, body });
  }

  updateApiKey(
    keyId: string,
    body: RequestBody<'/admin/v1/api-keys/{key_id}', 'patch'>,
    options: RequestOptions = {},
  ): Promise<ResponseBody<'/admin/v1/api-keys/{key_id}', 'patch'>> {
    return this.transport.request('PATCH', keyPath(keyId), { ...options, body });
  }

  revokeApiKey(keyId: string, options: RequestOptions = {}): Promise<ResponseBody<'/admin/v1/api-keys/{key_id}', 'delete'>> {
    return this.transport.request('DELETE', keyPath(keyId), options);
  }

  getLimits(orgId: string, options: RequestOptions = {}): Promise<ResponseBody<'/admin/v1/orgs/{org_id}/limits', 'get'>> {
    return this.transport.request('GET', `${orgPath(orgId)}/limits`, options);
  }

  updateLimits(
    orgId: string,
    body: RequestBody<'/admin/v1/orgs/{org_id}/limits', 'patch'>,
    options: RequestOptions = {},
  ): Promise<ResponseBody<'/admin/v1/orgs/{org_id}/limits', 'patch'>> {
    return this.transport.request('PATCH', `${orgPath(orgId)}/limits`, { ...options, body });
  }

  /** Adds tokens to the organisation's balance, once however often it is retried. */
  grantTokens(
    orgId: string,
    body: RequestBody<'/admin/v1/orgs/{org_id}/token-grants', 'post'>,
    options: RequestOptions = {},
  ): Promise<ResponseBody<'/admin/v1/orgs/{org_id}/token-grants', 'post'>> {
    return this.transport.request('POST', `${orgPath(orgId)}/token-grants`, {
      ...options,
      body,
      idempotencyKey: options.idempotencyKey ?? newIdempotencyKey(),
    });
  }

  /** The organisation's own prices of model turns, and the configured ones (`MODEL_PRICES`) that apply where it has none. */
  getModelPrices(orgId: string, options: RequestOptions = {}): Promise<ModelPrices> {
    return this.transport.request('GET', `${orgPath(orgId)}/model-prices`, options);
  }

  /**
   * Replaces the organisation's own model prices (service tokens per 1 000 input and output tokens); `[]` puts
   * `MODEL_PRICES` back. The next model turn of each of its runs is charged at these. The same body again
   * answers the same, so it is retried like a read.
   */
  replaceModelPrices(orgId: string, body: ModelPricesReplace, options: RequestOptions = {}): Promise<ModelPrices> {
    return this.transport.request('PUT', `${orgPath(orgId)}/model-prices`, { ...options, body, repeatable: true });
  }

  knowledgeIndex(orgId: string, options: RequestOptions = {}): Promise<ResponseBody<'/admin/v1/orgs/{org_id}/knowledge-index', 'get'>> {
    return this.transport.request('GET', `${orgPath(orgId)}/knowledge-index`, options);
  }

  disableWebhookEndpoints(
    orgId: string,
    body: RequestBody<'/admin/v1/orgs/{org_id}/webhook-endpoints/disable', 'post'> = {},
    options: RequestOptions = {},
  ): Promise<ResponseBody<'/admin/v1/orgs/{org_id}/webhook-endpoints/disable', 'post'>> {
    return this.transport.request('POST', `${orgPath(orgId)}/webhook-endpoints/disable`, { ...options, body, repeatable: true });
  }
}
