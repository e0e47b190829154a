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

/** What a thread posts on its progress port: a page or part done, or a refusal after which the thread must end. */
export type ThreadMessage = { done: number; total: number } | { endThread: string };

/** A refusal crosses the thread boundary as its reason: an Error's class does not survive the copy. */
export type ExtractionOutcome = { ok: true; document: ExtractedDocument } | { ok: false; reason: string };

/** Runs in a thread of the extraction pool (see ExtractionPool): one file's extraction, its progress posted back. */
export default async function extractInThread({ path, type, limits, progress }: ExtractionTask): Promise<ExtractionOutcome> {
  let outcome: ExtractionOutcome;
  try {
    const document = await extractDocument(path, type, {
      limits,
      onProgress: (done, total) => progress.postMessage({ done, total } satisfies ThreadMessage),
    });
    outcome = { ok: true, document };
  } catch (error) {
    if (!(error instanceof ExtractionFailure)) {
      progress.close();
      throw error;
    }
    // The parser still holds work in this thread: the pool ends the thread, and this task never settles.
    if (error.leavesParserBusy) {
      progress.postMessage({ endThread: error.message } satisfies ThreadMessage);
      return new Promise<never>(() => undefined);
    }
    outcome = { ok: false, reason: error.message };
  }
  progress.close();
  return outcome;
}
