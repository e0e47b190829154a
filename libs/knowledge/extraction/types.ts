import type { DocumentFileType } from '@pylon/contracts';

export { DOCUMENT_FILE_MEDIA_TYPES, type DocumentFileType } from '@pylon/contracts';

/** What a file's bytes say it is: one of ours, or what it was detected as (a media type or a description) for the 415. */
export type FileDetection = { supported: true; type: DocumentFileType } | { supported: false; detected: string };

/** A file's text, Markdown headings marking its sections, and where each page begins in it (PDF only). */
export interface ExtractedDocument {
  text: string;
  /** pageStarts[i] is the offset in `text` where page i + 1 begins; null when the format has no pages. */
  pageStarts: number[] | null;
}

/** Bounds on what one extraction may produce or unpack, whatever the file claims. */
export interface ExtractionLimits {
  /** The most characters of text a file may yield. */
  maxTextChars: number;
  /** The most bytes a compressed file may unpack to, in all: a DOCX's zip, a PDF's compressed streams. */
  maxUnpackedBytes: number;
  /** The most bytes one compressed stream of a PDF may inflate to. */
  maxInflatedStreamBytes: number;
  /** The most pages a PDF may have. */
  maxPdfPages: number;
  /** The most pieces of text pdf.js may find on one page. */
  maxTextItemsPerPage: number;
}

export interface ExtractionOptions {
  limits: ExtractionLimits;
  /** Called as the work advances (pages or parts done, of all), e.g. to heartbeat. */
  onProgress?: (done: number, total: number) => void;
  signal?: AbortSignal;
}

/**
 * A file that cannot become knowledge, with a reason a person understands ("the PDF is protected by a
 * password", "no text found: …"). Never worth a retry.
 */
export class ExtractionFailure extends Error {
  override readonly name = 'ExtractionFailure';

  /** `leavesParserBusy`: the parser was stopped mid-way and may still hold work, so its thread is not to be used again. */
  constructor(
    message: string,
    readonly leavesParserBusy = false,
  ) {
    super(message);
  }
}
