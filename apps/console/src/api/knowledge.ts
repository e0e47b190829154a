import { useQuery } from '@tanstack/react-query';
import { ApiFailure, call, failureOf, reported, requestJson, type Schemas } from './client';
import { storedApiKey } from './session';
import { fileForm, sendForm, type UploadProgress } from './uploads';

/*
 * Knowledge bases, revisions, files and page numbers, typed here from the API's DTOs
 * (apps/api/knowledge/dto, apps/api/knowledge-bases/dto): the SDK this console is built with does not have them yet.
 */

export interface KnowledgeBase {
  knowledge_base_id: string;
  org_id: string;
  name: string;
  description: string | null;
  is_default: boolean;
  document_count: number;
  created_at: string;
  updated_at: string;
}

export interface DocumentFile {
  name: string | null;
  type: string;
  media_type: string;
  size_bytes: number;
}

export type KnowledgeDocument = Schemas['DocumentView'] & {
  knowledge_base_id: string;
  revision: number;
  ready_revision: number | null;
  file: DocumentFile | null;
};

export type QueryMatch = Schemas['KnowledgeQueryResponse']['matches'][number] & {
  knowledge_base_id: string;
  page_start: number | null;
  page_end: number | null;
};

export type QueryRequest = Schemas['KnowledgeQueryRequest'] & { knowledge_base_ids?: string[] };

interface List<T> {
  data: T[];
  next_cursor: string | null;
}

const basesPath = '/api/v1/knowledge-bases';
const documentPath = (docId: string) => `/api/v1/knowledge/documents/${encodeURIComponent(docId)}`;

/** Every knowledge base of the organisation (a few pages of 100 at most), the default first. */
export async function listKnowledgeBases(): Promise<KnowledgeBase[]> {
  const bases: KnowledgeBase[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 10; page++) {
    const list = await requestJson<List<KnowledgeBase>>('GET', basesPath, { query: { limit: 100, cursor } });
    bases.push(...list.data);
    if (!list.next_cursor) break;
    cursor = list.next_cursor;
  }
  return bases.sort((a, b) => Number(b.is_default) - Number(a.is_default));
}

export function useKnowledgeBases(enabled = true) {
  return useQuery({ queryKey: ['knowledge-bases'], queryFn: listKnowledgeBases, enabled, staleTime: 5_000 });
}

export function createKnowledgeBase(body: { org_id: string; name: string; description?: string | null }): Promise<KnowledgeBase> {
  return requestJson('POST', basesPath, { body, create: true });
}

export function deleteKnowledgeBase(baseId: string, cascade: boolean): Promise<void> {
  return requestJson('DELETE', `${basesPath}/${encodeURIComponent(baseId)}`, { query: cascade ? { cascade: true } : {} });
}

export function listDocuments(params: { limit: number; cursor?: string; knowledgeBaseId?: string }): Promise<List<KnowledgeDocument>> {
  return requestJson('GET', '/api/v1/knowledge/documents', {
    query: { limit: params.limit, cursor: params.cursor, knowledge_base_id: params.knowledgeBaseId },
  });
}

export function getDocument(docId: string): Promise<KnowledgeDocument> {
  return call((pylon) => pylon.knowledge.documents.get(docId)) as Promise<KnowledgeDocument>;
}

export function queryKnowledge(body: QueryRequest): Promise<{ matches: QueryMatch[] }> {
  return requestJson('POST', '/api/v1/knowledge/query', { body });
}

/** A new revision from text (PUT …/documents/{id}): searchable once ready; until then search serves the previous one. */
export function replaceDocumentText(docId: string, body: { org_id: string; content: string; title?: string }): Promise<KnowledgeDocument> {
  return requestJson('PUT', documentPath(docId), { body });
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

/** The original file, fetched with the key (a header, so no plain link can carry it) as a Blob. */
export async function downloadFile(docId: string): Promise<Blob> {
  let response: Response;
  try {
    response = await fetch(new URL(`${documentPath(docId)}/file`, window.location.origin), {
      headers: { authorization: `Bearer ${storedApiKey() ?? ''}` },
    });
  } catch (error) {
    throw new ApiFailure(0, 'network_error', error instanceof Error ? error.message : String(error));
  }
  if (!response.ok) throw reported(await failureOf(response));
  return response.blob();
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
