import { Paginated } from '../pagination.js';
import { newIdempotencyKey, type RequestOptions, type Transport } from '../transport.js';
import type { Page, QueryParams, RequestBody, ResponseBody } from '../types.js';

export type KnowledgeBase = ResponseBody<'/api/v1/knowledge-bases/{knowledge_base_id}', 'get'>;
export type KnowledgeBaseCreate = RequestBody<'/api/v1/knowledge-bases', 'post'>;
export type KnowledgeBaseUpdate = RequestBody<'/api/v1/knowledge-bases/{knowledge_base_id}', 'patch'>;

const basePath = (baseId: string) => `/api/v1/knowledge-bases/${encodeURIComponent(baseId)}`;

/** Named groups of documents, each searchable on its own (`knowledge.query({knowledge_base_ids})`). */
export class KnowledgeBases {
  constructor(private readonly transport: Transport) {}

  /** Creates a base (its name unique in the organisation). Created once, however often it is retried. */
  create(body: KnowledgeBaseCreate, options: RequestOptions = {}): Promise<KnowledgeBase> {
    return this.transport.request('POST', '/api/v1/knowledge-bases', {
      ...options,
      body,
      idempotencyKey: options.idempotencyKey ?? newIdempotencyKey(),
    });
  }

  get(knowledgeBaseId: string, options: RequestOptions = {}): Promise<KnowledgeBase> {
    return this.transport.request('GET', basePath(knowledgeBaseId), options);
  }

  /** Newest first, page by page. */
  list(params: Omit<QueryParams<'/api/v1/knowledge-bases', 'get'>, 'cursor'> = {}, options: RequestOptions = {}): Paginated<KnowledgeBase> {
    return new Paginated((cursor) =>
      this.transport.request<Page<KnowledgeBase>>('GET', '/api/v1/knowledge-bases', { ...options, query: { ...params, cursor } }),
    );
  }

  /** Renames it or changes its description: the same request again changes nothing more. */
  update(knowledgeBaseId: string, body: KnowledgeBaseUpdate, options: RequestOptions = {}): Promise<KnowledgeBase> {
    return this.transport.request('PATCH', basePath(knowledgeBaseId), { ...options, body, repeatable: true });
  }

  /** Deletes an empty base (ConflictError `knowledge_base_not_empty` otherwise), or with `cascade: true` its documents too. */
  delete(knowledgeBaseId: string, params: { cascade?: boolean } = {}, options: RequestOptions = {}): Promise<void> {
    return this.transport.request('DELETE', basePath(knowledgeBaseId), { ...options, query: { ...options.query, cascade: params.cascade } });
  }
}
