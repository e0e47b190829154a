import { requireText } from './bounded-text';
import { extractDocx } from './docx';
import { htmlFileToText } from './html-to-text';
import { extractPdf } from './pdf';
import { extractPlainText } from './text';
import type { DocumentFileType, ExtractedDocument, ExtractionOptions } from './types';

/** A supported file's text, Markdown headings marking its sections, bounded by `options.limits`. */
export async function extractDocument(path: string, type: DocumentFileType, options: ExtractionOptions): Promise<ExtractedDocument> {
  options.signal?.throwIfAborted();
  const document = await extractByType(path, type, options);
  return { text: requireText(document.text), pageStarts: document.pageStarts };
}

async function extractByType(path: string, type: DocumentFileType, options: ExtractionOptions): Promise<ExtractedDocument> {
  switch (type) {
    case 'pdf':
      return extractPdf(path, options);
    case 'docx':
      return extractDocx(path, options);
    case 'html': {
      const text = await htmlFileToText(path, options.limits.maxTextChars, options.signal);
      options.onProgress?.(1, 1);
      return { text, pageStarts: null };
    }
    case 'markdown':
    case 'text':
      return extractPlainText(path, options);
  }
}
