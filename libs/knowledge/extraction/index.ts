// Placeholder until the extraction module lands: the signatures the rest of the code is written against.
import type { ExtractedDocument, ExtractionOptions, FileDetection, DocumentFileType } from './types';
export * from './types';

export async function detectDocumentType(path: string): Promise<FileDetection> {
  void path;
  throw new Error('not implemented yet');
}

export async function extractDocument(path: string, type: DocumentFileType, options: ExtractionOptions): Promise<ExtractedDocument> {
  void path;
  void type;
  void options;
  throw new Error('not implemented yet');
}

/** The pages (1-based) that the text between `start` and `end` spans, given where each page starts. */
export function pageRange(start: number, end: number, pageStarts: readonly number[]): { pageStart: number; pageEnd: number } | null {
  void start;
  void end;
  void pageStarts;
  throw new Error('not implemented yet');
}
