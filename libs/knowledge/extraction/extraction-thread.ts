import type { MessagePort } from 'node:worker_threads';
import { extractDocument } from './extract-document';
import { ExtractionFailure, type DocumentFileType, type ExtractedDocument, type ExtractionLimits } from './types';

export interface ExtractionTask {
  path: string;
  type: DocumentFileType;
  limits: ExtractionLimits;
  /** Where the thread reports each page or part it finishes, as `{ done, total }`. */
  progress: MessagePort;
}

/** A refusal crosses the thread boundary as its reason: an Error's class does not survive the copy. */
export type ExtractionOutcome = { ok: true; document: ExtractedDocument } | { ok: false; reason: string };

/** Runs in a thread of the extraction pool (see ExtractionPool): one file's extraction, its progress posted back. */
export default async function extractInThread({ path, type, limits, progress }: ExtractionTask): Promise<ExtractionOutcome> {
  try {
    const document = await extractDocument(path, type, { limits, onProgress: (done, total) => progress.postMessage({ done, total }) });
    return { ok: true, document };
  } catch (error) {
    if (error instanceof ExtractionFailure) return { ok: false, reason: error.message };
    throw error;
  } finally {
    progress.close();
  }
}
