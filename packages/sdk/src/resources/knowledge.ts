import { appendFields, fileNameOf, toBlob, type DownloadedFile, type FileInput, type NamedFile } from '../files.js';
import { Paginated } from '../pagination.js';
import { newIdempotencyKey, type RequestOptions, type Transport } from '../transport.js';
import type { Page, QueryParams, RequestBody, ResponseBody } from '../types.js';

export type KnowledgeDocument = ResponseBody<'/api/v1/knowledge/documents/{doc_id}', 'get'>;
export type KnowledgeSearch = RequestBody<'/api/v1/knowledge/search', 'post'>;
export type KnowledgeDocumentReplace = RequestBody<'/api/v1/knowledge/documents/{doc_id}', 'put'>;
export type KnowledgeBatch = ResponseBody<'/api/v1/knowledge/batches/{batch_id}', 'get'>;
/** A batch of texts, as JSON: `{org_id, knowledge_base_id?, documents: [{title, content, metadata?}]}`. */
export type KnowledgeBatchTexts = RequestBody<'/api/v1/knowledge/batches', 'post'>;

/** A batch of files (each becomes a document titled by its file name), with the fields they share. */
export interface KnowledgeBatchFiles {
  files: readonly (FileInput | NamedFile)[];
  /** Set on every document of the batch. */
  metadata?: Record<string, unknown>;
  /** The base they go into; the organisation's default when left out. */
  knowledgeBaseId?: string;
  /** The key's organisation; may be left out. */
  orgId?: string;
}

/** The fields sent beside a file. */
export interface KnowledgeFileOptions extends RequestOptions {
  /** The name the file is sent under (its title when `title` is left out); by default the File's or the path's name. */
  fileName?: string;
  title?: string;
  metadata?: Record<string, unknown>;
  /** The key's organisation; may be left out. */
  orgId?: string;
}

export interface KnowledgeFileUploadOptions extends KnowledgeFileOptions {
  /** The base it goes into; the organisation's default when left out. */
  knowledgeBaseId?: string;
}

const documentPath = (docId: string) => `/api/v1/knowledge/documents/${encodeURIComponent(docId)}`;
const batchPath = (batchId: string) => `/api/v1/knowledge/batches/${encodeURIComponent(batchId)}`;

/** What RequestOptions a file call passes on to the transport (the form's fields stay out). */
function requestOptions(options: KnowledgeFileUploadOptions): RequestOptions {
  const { fileName, title, metadata, orgId, knowledgeBaseId, ...rest } = options;
  return rest;
}

/** The upload form of one file: part `file` and the fields that are set. */
async function fileForm(file: FileInput, options: KnowledgeFileUploadOptions): Promise<FormData> {
  const { blob, fileName } = await toBlob(file, options.fileName);
  const form = new FormData();
  form.append('file', blob, fileName);
  appendFields(form, { title: options.title, metadata: options.metadata, knowledge_base_id: options.knowledgeBaseId, org_id: options.orgId });
  return form;
}

/** An organisation's knowledge: documents (ingested by a workflow), files, batches, and search. */
export class Knowledge {
  readonly documents: KnowledgeDocuments;
  readonly files: KnowledgeFiles;
  readonly batches: KnowledgeBatches;

  constructor(private readonly transport: Transport) {
    this.documents = new KnowledgeDocuments(transport);
    this.files = new KnowledgeFiles(transport);
    this.batches = new KnowledgeBatches(transport);
  }

  /** Semantic search; a read, so retried like one. */
  search(body: KnowledgeSearch, options: RequestOptions = {}): Promise<ResponseBody<'/api/v1/knowledge/search', 'post'>> {
    return this.transport.request('POST', '/api/v1/knowledge/search', { ...options, body, repeatable: true });
  }

  /** Search by keywords and meaning at once, optionally filtered by metadata and knowledge bases. */
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

  /** Replaces the document's text (a new revision; search serves the previous one until it is ready). One revision however often it is retried. */
  replace(docId: string, body: KnowledgeDocumentReplace, options: RequestOptions = {}): Promise<KnowledgeDocument> {
    return this.transport.request('PUT', documentPath(docId), {
      ...options,
      body,
      idempotencyKey: options.idempotencyKey ?? newIdempotencyKey(),
    });
  }

  /** Replaces the document by a new file (a new revision), sent as multipart/form-data; one revision however often it is retried. */
  async replaceFile(docId: string, file: FileInput, options: KnowledgeFileOptions = {}): Promise<KnowledgeDocument> {
    return this.transport.request('PUT', `${documentPath(docId)}/file`, {
      ...requestOptions(options),
      body: await fileForm(file, options),
      idempotencyKey: options.idempotencyKey ?? newIdempotencyKey(),
    });
  }

  delete(docId: string, options: RequestOptions = {}): Promise<ResponseBody<'/api/v1/knowledge/documents/{doc_id}', 'delete'>> {
    return this.transport.request('DELETE', documentPath(docId), options);
  }
}

/** Documents made from files (PDF, DOCX, HTML, Markdown, text), and the files they were made from. */
export class KnowledgeFiles {
  constructor(private readonly transport: Transport) {}

  /**
   * Adds a document from a file: a Blob or File, bytes, or (on Node) a path. Its text is extracted, chunked and
   * embedded in the background (`documents.get` shows when it is ready). Created once, however often it is retried.
   */
  async upload(file: FileInput, options: KnowledgeFileUploadOptions = {}): Promise<ResponseBody<'/api/v1/knowledge/files', 'post'>> {
    return this.transport.request('POST', '/api/v1/knowledge/files', {
      ...requestOptions(options),
      body: await fileForm(file, options),
      idempotencyKey: options.idempotencyKey ?? newIdempotencyKey(),
    });
  }

  /** The file a document was made from, as uploaded: its bytes, name and media type. */
  async download(docId: string, options: RequestOptions = {}): Promise<DownloadedFile> {
    const response = await this.transport.send('GET', `${documentPath(docId)}/file`, { ...options, headers: { accept: '*/*', ...options.headers } });
    return {
      bytes: new Uint8Array(await response.arrayBuffer()),
      fileName: fileNameOf(response.headers.get('content-disposition')),
      mediaType: (response.headers.get('content-type') ?? 'application/octet-stream').split(';')[0]!.trim(),
    };
  }
}

/** Many documents at once, all accepted or none, followed as one batch. */
export class KnowledgeBatches {
  constructor(private readonly transport: Transport) {}

  /**
   * Adds up to 500 documents: `{files: [...]}` sends files (multipart/form-data), a body with `documents` sends
   * texts (JSON). Created once, however often it is retried.
   */
  async create(batch: KnowledgeBatchFiles | KnowledgeBatchTexts, options: RequestOptions = {}): Promise<KnowledgeBatch> {
    let body: FormData | KnowledgeBatchTexts = batch as KnowledgeBatchTexts;
    if ('files' in batch) {
      const form = new FormData();
      for (const entry of batch.files) {
        const named = typeof entry === 'object' && entry !== null && 'file' in entry ? entry : { file: entry };
        const { blob, fileName } = await toBlob(named.file, named.fileName);
        form.append('file', blob, fileName);
      }
      appendFields(form, { metadata: batch.metadata, knowledge_base_id: batch.knowledgeBaseId, org_id: batch.orgId });
      body = form;
    }
    return this.transport.request('POST', '/api/v1/knowledge/batches', {
      ...options,
      body,
      idempotencyKey: options.idempotencyKey ?? newIdempotencyKey(),
    });
  }

  /** The batch's progress: its documents counted by status, and listed. */
  get(batchId: string, options: RequestOptions = {}): Promise<KnowledgeBatch> {
    return this.transport.request('GET', batchPath(batchId), options);
  }

  /** Stops the batch: documents not yet begun end failed, those being ingested finish. The same however often it arrives. */
  cancel(batchId: string, options: RequestOptions = {}): Promise<KnowledgeBatch> {
    return this.transport.request('POST', `${batchPath(batchId)}/cancel`, { ...options, repeatable: true });
  }
}
