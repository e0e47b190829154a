import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Pylon } from '@pylon/sdk';
import { useCallback } from 'react';
import { call } from '../api/client';
import {
  createKnowledgeBase,
  deleteKnowledgeBase,
  downloadFile,
  getDocument,
  listDocuments,
  listKnowledgeBases,
  queryKnowledge,
  replaceDocumentFile,
  replaceDocumentText,
  type KnowledgeBase,
  type KnowledgeDocument,
} from '../api/knowledge';
import { queryKeys } from '../api/query-keys';
import type { UploadProgress } from '../api/uploads';
import { useChange, type After } from './mutation';

type DocumentCreate = Parameters<Pylon['knowledge']['documents']['create']>[0];

/** Every knowledge base of the organisation, the default first. */
export function useKnowledgeBases(enabled = true) {
  return useQuery({ queryKey: queryKeys.knowledge.bases(), queryFn: listKnowledgeBases, enabled, staleTime: 5_000 });
}

/** Documents of one base (or all), one page of 20; followed every second while one is being ingested. */
export function useDocuments(baseId: string, cursor: string | undefined) {
  return useQuery({
    queryKey: queryKeys.knowledge.documentList(baseId, cursor),
    queryFn: () => listDocuments({ limit: 20, cursor, knowledgeBaseId: baseId || undefined }),
    refetchInterval: (query) => (query.state.data?.data.some((document) => document.status === 'processing') ? 1_000 : false),
  });
}

/** One document, followed every second while it is being processed. */
export function useDocument(docId: string) {
  return useQuery({
    queryKey: queryKeys.knowledge.document(docId),
    queryFn: () => getDocument(docId),
    refetchInterval: (query) => (query.state.data?.status === 'processing' ? 1_000 : false),
  });
}

/** A cited document (its title), when this key can read knowledge. */
export function useCitedDocument(docId: string, enabled: boolean) {
  return useQuery({ queryKey: queryKeys.knowledge.document(docId), enabled, queryFn: () => getDocument(docId), staleTime: 60_000 });
}

/** An uploaded file's document, followed every second until ready or failed (one query per document, shared). */
function followDocument(docId: string | undefined) {
  return {
    queryKey: queryKeys.knowledge.document(docId),
    enabled: !!docId,
    queryFn: () => getDocument(docId!),
    refetchInterval: (query: { state: { data?: KnowledgeDocument } }) =>
      (query.state.data?.status ?? 'processing') === 'processing' ? 1_000 : false,
  } as const;
}

export function useFollowedDocument(docId: string | undefined) {
  return useQuery(followDocument(docId));
}

export function useFollowedDocuments(docIds: Array<string | undefined>) {
  return useQueries({ queries: docIds.map(followDocument) });
}

/** After documents were added or deleted: the lists and the bases' counts read again. */
export function useDocumentsChanged() {
  const queryClient = useQueryClient();
  return useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: queryKeys.knowledge.documents() });
    void queryClient.invalidateQueries({ queryKey: queryKeys.knowledge.bases() });
  }, [queryClient]);
}

/**
 * Creates a base and lists it at once, so that a picker shows it chosen before the list is fetched again (a
 * fetch under way, from before it existed, is dropped).
 */
export function useCreateKnowledgeBase({ onSuccess }: After<KnowledgeBase, { org_id: string; name: string }> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { org_id: string; name: string }) => createKnowledgeBase(body),
    onSuccess: async (base, body) => {
      await queryClient.cancelQueries({ queryKey: queryKeys.knowledge.bases() });
      queryClient.setQueryData<KnowledgeBase[]>(queryKeys.knowledge.bases(), (bases) => [...(bases ?? []), base]);
      onSuccess?.(base, body);
      void queryClient.invalidateQueries({ queryKey: queryKeys.knowledge.bases() });
    },
  });
}

/** Deletes a base (with its documents when it has any), gone from the list at once. */
export function useDeleteKnowledgeBase({ onSuccess }: After<void, KnowledgeBase> = {}) {
  const queryClient = useQueryClient();
  const documentsChanged = useDocumentsChanged();
  return useMutation({
    mutationFn: (base: KnowledgeBase) => deleteKnowledgeBase(base.knowledge_base_id, base.document_count > 0),
    onSuccess: async (_, deleted) => {
      await queryClient.cancelQueries({ queryKey: queryKeys.knowledge.bases() });
      queryClient.setQueryData<KnowledgeBase[]>(queryKeys.knowledge.bases(), (bases) =>
        bases?.filter((base) => base.knowledge_base_id !== deleted.knowledge_base_id),
      );
      onSuccess?.(undefined, deleted);
      documentsChanged();
    },
  });
}

export function useAddDocument({ onSuccess }: After<KnowledgeDocument, DocumentCreate> = {}) {
  const documentsChanged = useDocumentsChanged();
  return useChange((body: DocumentCreate) => call((pylon) => pylon.knowledge.documents.create(body)), documentsChanged, { onSuccess });
}

export function useDeleteDocument(docId: string) {
  const documentsChanged = useDocumentsChanged();
  return useMutation({ mutationFn: () => call((pylon) => pylon.knowledge.documents.delete(docId)), onSuccess: documentsChanged });
}

/** What replaces a document: a text, or a file (with its upload's progress). */
export type Replacement = { orgId: string; text: string } | { file: File | null; onProgress: (progress: UploadProgress) => void };

/** A new revision of a document, from text or a file; the document keeps its id. */
export function useReplaceDocument(docId: string, { onSuccess }: After<KnowledgeDocument, Replacement> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (replacement: Replacement) => {
      if ('text' in replacement) return replaceDocumentText(docId, { org_id: replacement.orgId, content: replacement.text });
      const { file, onProgress } = replacement;
      if (!file) throw new Error('Choose a file first.');
      onProgress({ sent: 0, total: file.size });
      return replaceDocumentFile(docId, file, {}, onProgress);
    },
    onSuccess: (updated, replacement) => {
      queryClient.setQueryData(queryKeys.knowledge.document(docId), updated);
      void queryClient.invalidateQueries({ queryKey: queryKeys.knowledge.documents() });
      return onSuccess?.(updated, replacement);
    },
  });
}

/** A document's original file, fetched with the key. */
export function useDownloadDocumentFile(docId: string, { onSuccess }: After<{ blob: Blob; fileName: string }> = {}) {
  return useMutation({ mutationFn: () => downloadFile(docId), onSuccess });
}

/** The search playground: a query as an agent's knowledge_search would run it. */
export function useSearchKnowledge() {
  return useMutation({ mutationFn: queryKnowledge });
}
