import { call, type Schemas } from './client';
import { fileForm, sendForm, type UploadProgress } from './uploads';

/*
 * Knowledge bases, documents and their revisions through the SDK (@pylon/sdk); the uploads themselves go
 * through XMLHttpRequest (./uploads), whose upload progress events fetch does not give.
 */

export type KnowledgeBase = Schemas['KnowledgeBaseView'];
export type KnowledgeDocument = Schemas['DocumentView'];
export type QueryMatch = Schemas['KnowledgeQueryMatch'];
export type QueryRequest = Schemas['KnowledgeQueryRequest'];

const documentPath = (docId: string) => `/api/v1/knowledge/documents/${encodeURIComponent(docId)}`;

/** Every knowledge base of the organisation (a few pages of 100 at most), the default first. */
export async function listKnowledgeBases(): Promise<KnowledgeBase[]> {
  const bases: KnowledgeBase[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 10; page++) {
    const list = await call((pylon) => pylon.knowledgeBases.list({ limit: 100 }).page(cursor));
    bases.push(...list.data);
    if (!list.next_cursor) break;
    cursor = list.next_cursor;
  }
  return bases.sort((a, b) => Number(b.is_default) - Number(a.is_default));
}

export function createKnowledgeBase(body: { org_id: string; name: string; description?: string | null }): Promise<KnowledgeBase> {
  return call((pylon) => pylon.knowledgeBases.create(body));
}

/** Deletes a base: an empty one, or (cascade) with its documents. */
export function deleteKnowledgeBase(baseId: string, cascade: boolean): Promise<void> {
  return call((pylon) => pylon.knowledgeBases.delete(baseId, cascade ? { cascade: true } : {}));
}

export function listDocuments(params: { limit: number; cursor?: string; knowledgeBaseId?: string }) {
  return call((pylon) =>
    pylon.knowledge.documents
      .list({ limit: params.limit, ...(params.knowledgeBaseId ? { knowledge_base_id: params.knowledgeBaseId } : {}) })
      .page(params.cursor),
  );
}

export function getDocument(docId: string): Promise<KnowledgeDocument> {
  return call((pylon) => pylon.knowledge.documents.get(docId));
}

export function queryKnowledge(body: QueryRequest) {
  return call((pylon) => pylon.knowledge.query(body));
}

/** A new revision from text (PUT …/documents/{id}): searchable once ready; until then search serves the previous one. */
export function replaceDocumentText(docId: string, body: { org_id: string; content: string; title?: string }): Promise<KnowledgeDocument> {
  return call((pylon) => pylon.knowledge.documents.replace(docId, body));
}

/** Adds a document from a file (POST /knowledge/files), reporting its upload's progress. */
export function uploadFile(
  file: File,
  fields: { title?: string; knowledgeBaseId?: string },
  onProgress: (progress: UploadProgress) => void,
): Promise<KnowledgeDocument> {
  return sendForm('POST', '/api/v1/knowledge/files', fileForm(file, fields), { onProgress });
}

/** A new revision from a file (PUT …/documents/{id}/file), reporting its upload's progress. */
export function replaceDocumentFile(
  docId: string,
  file: File,
  fields: { title?: string },
  onProgress: (progress: UploadProgress) => void,
): Promise<KnowledgeDocument> {
  return sendForm('PUT', `${documentPath(docId)}/file`, fileForm(file, fields), { onProgress });
}

/** The original file, fetched with the key (a header, so no plain link can carry it), as a Blob of its media type. */
export async function downloadFile(docId: string): Promise<{ blob: Blob; fileName: string }> {
  const file = await call((pylon) => pylon.knowledge.files.download(docId));
  return { blob: new Blob([file.bytes as Uint8Array<ArrayBuffer>], { type: file.mediaType }), fileName: file.fileName };
}

/** "1.2 MB", "830 B". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toLocaleString(undefined, { maximumFractionDigits: 1 })} ${units[unit]}`;
}

/** "p. 3", "pp. 3–4", or null for a match without pages. */
export function pagesLabel(start: number | null | undefined, end: number | null | undefined): string | null {
  if (start == null) return null;
  return end == null || end === start ? `p. ${start}` : `pp. ${start}–${end}`;
}
