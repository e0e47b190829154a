import { Paginated } from '../pagination.js';
import { newIdempotencyKey, type RequestOptions, type Transport } from '../transport.js';
import type { Page, RequestBody, ResponseBody } from '../types.js';

export type Agent = ResponseBody<'/api/v1/agents/{agent_id}', 'get'>;
export type AgentVersion = ResponseBody<'/api/v1/agent-versions/{agent_version_id}', 'get'>;
export type AgentVersionCreate = RequestBody<'/api/v1/agents/{agent_id}/versions', 'post'>;
/** A version's structured output: `{type: "json_schema", name, schema, strict?}`; its runs answer JSON that matches `schema`. */
export type ResponseFormat = NonNullable<AgentVersionCreate['response_format']>;

/** Agents and their immutable versions. */
export class Agents {
  constructor(private readonly transport: Transport) {}

  /** The model providers a version can name, and whether this server can run each. */
  modelProviders(options: RequestOptions = {}): Promise<ResponseBody<'/api/v1/models', 'get'>> {
    return this.transport.request('GET', '/api/v1/models', options);
  }

  /** Creates an agent. Retried with one Idempotency-Key (yours in `options.idempotencyKey`, or one made for this call), so it is created once. */
  create(body: RequestBody<'/api/v1/agents', 'post'>, options: RequestOptions = {}): Promise<ResponseBody<'/api/v1/agents', 'post'>> {
    return this.transport.request('POST', '/api/v1/agents', { ...options, body, idempotencyKey: options.idempotencyKey ?? newIdempotencyKey() });
  }

  get(agentId: string, options: RequestOptions = {}): Promise<Agent> {
    return this.transport.request('GET', `/api/v1/agents/${encodeURIComponent(agentId)}`, options);
  }

  list(params: { limit?: number } = {}, options: RequestOptions = {}): Paginated<Agent> {
    return new Paginated((cursor) => this.transport.request<Page<Agent>>('GET', '/api/v1/agents', { ...options, query: { ...params, cursor } }));
  }

  /** Creates a version, retried with one Idempotency-Key like `create`. */
  createVersion(
    agentId: string,
    body: AgentVersionCreate,
    options: RequestOptions = {},
  ): Promise<ResponseBody<'/api/v1/agents/{agent_id}/versions', 'post'>> {
    return this.transport.request('POST', `/api/v1/agents/${encodeURIComponent(agentId)}/versions`, {
      ...options,
      body,
      idempotencyKey: options.idempotencyKey ?? newIdempotencyKey(),
    });
  }

  listVersions(agentId: string, params: { limit?: number } = {}, options: RequestOptions = {}): Paginated<AgentVersion> {
    return new Paginated((cursor) =>
      this.transport.request<Page<AgentVersion>>('GET', `/api/v1/agents/${encodeURIComponent(agentId)}/versions`, {
        ...options,
        query: { ...params, cursor },
      }),
    );
  }

  getVersion(versionId: string, options: RequestOptions = {}): Promise<AgentVersion> {
    return this.transport.request('GET', `/api/v1/agent-versions/${encodeURIComponent(versionId)}`, options);
  }
}
