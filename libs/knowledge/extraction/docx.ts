import mammoth from 'mammoth';
import { htmlToText } from './html-to-text';
import { reasons } from './reasons';
import { ExtractionFailure, type ExtractedDocument, type ExtractionOptions } from './types';
import { guardZip } from './zip-guard';

/**
 * A Word file: its zip guarded first (mammoth inflates every part into memory), then mammoth's HTML
 * (Word's heading styles become h1…h6, tables and lists come through) turned into text.
 */
export async function extractDocx(path: string, options: ExtractionOptions): Promise<ExtractedDocument> {
  await guardZip(path, 'word/document.xml', reasons.docxUnreadable, options);
  options.signal?.throwIfAborted();
  let html: string;
  try {
    html = (await mammoth.convertToHtml({ path }, { includeDefaultStyleMap: true })).value;
  } catch {
    throw new ExtractionFailure(reasons.docxUnreadable);
  }
  return { text: htmlToText(html, options.limits.maxTextChars), pageStarts: null };
}
