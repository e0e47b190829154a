import type { KnowledgeDocument } from '@pylon/db';

/**
 * Where one revision stands against the document's latest accepted one. Each ingestion step works on one
 * revision: once a later one is accepted the step does nothing; a revision not accepted yet (its workflow
 * is started before the API writes it, see KnowledgeDocumentsService.replace) is waited for.
 */
export type RevisionStanding = 'latest' | 'superseded' | 'not accepted yet';

export function revisionStanding(document: Pick<KnowledgeDocument, 'revision'>, revision: number): RevisionStanding {
  if (document.revision === revision) return 'latest';
  return document.revision > revision ? 'superseded' : 'not accepted yet';
}

/** Whether a later revision than `revision` was accepted; throws (so the step is retried) while `revision` is not accepted yet. */
export function isSuperseded(document: Pick<KnowledgeDocument, 'id' | 'revision'>, revision: number): boolean {
  const standing = revisionStanding(document, revision);
  if (standing === 'not accepted yet') {
    throw new Error(`revision ${revision} of document ${document.id} is not accepted yet (it is at ${document.revision})`);
  }
  return standing === 'superseded';
}
