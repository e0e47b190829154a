import { Paginated } from '../pagination.js';
import { newIdempotencyKey, type RequestOptions, type Transport } from '../transport.js';
import type { Page, QueryParams, RequestBody, ResponseBody } from '../types.js';

export type KnowledgeDocument = ResponseBody<'/api/v1/knowledge/documents/{doc_id}', 'get'>;
export type KnowledgeSearch = RequestBody<'/api/v1/knowledge/search', 'post'>;

const documentPath = (docId: string) => `/api/v1/knowledge/documents/${encodeURIComponent(docId)}`;

/** An organisation's knowledge base: documents (ingested by a workflow) and search. */
export class Knowledge {
  readonly documents: KnowledgeDocuments;

  constructor(private readonly transport: Transport) {
    this.documents = new KnowledgeDocuments(transport);
  }

  /** Semantic search; a read, so retried like one. */
  search(body: KnowledgeSearch, options: RequestOptions = {}): Promise<ResponseBody<'/api/v1/knowledge/search', 'post'>> {
    return this.transport.request('POST', '/api/v1/knowledge/search', { ...options, body, repeatable: true });
  }

  /** Search by keywords and meaning at once, optionally filtered by metadata. */
  query(
    body: RequestBody<'/api/v1/knowledge/query', 'post'>,
    options: RequestOptions = {},
  ): Promise<ResponseBody<'/api/v1/knowledge/query', 'post'>> {
    return this.transport.request('POST', '/api/v1/knowledge/query', { ...options, body, repeatable: true });
  }
}

export class KnowledgeDocuments {
  constructor(private readonly transport: Transport) {}

  /** Adds a document (processed in the background; `get` shows when it is ready). Created once, however often it is retried. */
  create(
    body: RequestBody<'/api/v1/knowledge/documents', 'post'>,
    options: RequestOptions = {},
  ): Promise<ResponseBody<'/api/v1/knowledge/documents', 'post'>> {
    return this.transport.request('POST', '/api/v1/knowledge/documents', {
      ...options,
      body,
      idempotencyKey: options.idempotencyKey ?? newIdempotencyKey(),
    });
  }

  get(docId: string, options: RequestOptions = {}): Promise<KnowledgeDocument> {
    return this.transport.request('GET', documentPath(docId), options);
  }

  list(params: Omit<QueryParams<'/api/v1/knowledge/documents', 'get'>, 'cursor'> = {}, options: RequestOptions = {}): Paginated<KnowledgeDocument> {
    return new Paginated((cursor) =>
      this.transport.request<Page<KnowledgeDocument>>('GET', '/api/v1/knowledge/documents', { ...options, query: { ...params, cursor } }),
    );
  }

  delete(docId: string, options: RequestOptions = {}): Promise<ResponseBody<'/api/v1/knowledge/documents/{doc_id}', 'delete'>> {
    return this.transport.request('DELETE', documentPath(docId), options);
  }
}
