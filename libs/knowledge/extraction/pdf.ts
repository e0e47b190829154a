/**
 * PDF text with pdfjs-dist (its legacy build, the one meant for Node), used directly rather than through
 * unpdf: we need each text item's position to rebuild lines and table rows, page-by-page progress and
 * cancellation, the password error as a type, and control of pdf.js's logging and font data; unpdf
 * wraps a second, bundled copy of pdf.js and mainly adds a merged-text convenience we would not use.
 */
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type * as PdfJsModule from 'pdfjs-dist/legacy/build/pdf.mjs';
import { BoundedText } from './bounded-text';
import { pageLines, type PositionedText } from './pdf-lines';
import { guardPdfStreams } from './pdf-stream-guard';
import { reasons } from './reasons';
import { ExtractionFailure, type ExtractedDocument, type ExtractionOptions } from './types';

type PdfJs = typeof PdfJsModule;

let pdfjsLoaded: Promise<PdfJs> | undefined;

/**
 * pdf.js, loaded once, with its worker running in this thread: in Node there is no Web Worker, and
 * handing pdf.js the worker module up front (globalThis.pdfjsWorker) spares it a dynamic import of a
 * worker file by URL, which breaks once the code is bundled or compiled to CommonJS.
 */
function loadPdfJs(): Promise<PdfJs> {
  pdfjsLoaded ??= (async () => {
    const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
    (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = await import('pdfjs-dist/legacy/build/pdf.worker.mjs');
    return pdfjs;
  })();
  return pdfjsLoaded;
}

/** Where pdfjs-dist keeps the data files it reads from disk in Node (fonts, CMaps, wasm decoders). */
function pdfjsDataDirectory(name: string): string {
  return join(dirname(require.resolve('pdfjs-dist/package.json')), name) + '/';
}

/** A PDF whose end was cut off has no `%%EOF` at its end; pdf.js would patch up what is left and read part of it. */
function endsLikeAPdf(bytes: Uint8Array): boolean {
  const tail = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).subarray(Math.max(0, bytes.byteLength - 4096));
  return tail.includes('%%EOF');
}

export async function extractPdf(path: string, { limits, onProgress, signal }: ExtractionOptions): Promise<ExtractedDocument> {
  const file = await readFile(path, { signal });
  const bytes = new Uint8Array(file.buffer, file.byteOffset, file.byteLength);
  if (!endsLikeAPdf(bytes)) throw new ExtractionFailure(reasons.pdfUnreadable);
  guardPdfStreams(file, limits);
  const pdfjs = await loadPdfJs();
  const loadingTask = pdfjs.getDocument({
    data: bytes,
    verbosity: pdfjs.VerbosityLevel.ERRORS,
    standardFontDataUrl: pdfjsDataDirectory('standard_fonts'),
    cMapUrl: pdfjsDataDirectory('cmaps'),
    cMapPacked: true,
    wasmUrl: pdfjsDataDirectory('wasm'),
    iccUrl: pdfjsDataDirectory('iccs'),
    useSystemFonts: false,
    disableFontFace: true,
  });
  let leftBusy = false;
  try {
    let document;
    try {
      document = await loadingTask.promise;
    } catch (error) {
      if (error instanceof Error && error.name === 'PasswordException') throw new ExtractionFailure(reasons.pdfPassword);
      throw new ExtractionFailure(reasons.pdfUnreadable);
    }
    if (document.numPages > limits.maxPdfPages) throw new ExtractionFailure(reasons.pdfTooManyPages(limits.maxPdfPages));
    const output = new BoundedText(limits.maxTextChars);
    const pageStarts: number[] = [];
    let pagesWithText = 0;
    for (let pageNumber = 1; pageNumber <= document.numPages; pageNumber++) {
      signal?.throwIfAborted();
      const lines = await readPageLines(document, pageNumber, limits.maxTextItemsPerPage);
      if (lines.length > 0) {
        if (output.length > 0) output.append('\n\n');
        pagesWithText++;
      }
      pageStarts.push(output.length);
      output.append(lines.join('\n'));
      onProgress?.(pageNumber, document.numPages);
    }
    if (pagesWithText === 0) throw new ExtractionFailure(reasons.pdfNoTextLayer(document.numPages));
    return { text: `${output.toString()}\n`, pageStarts };
  } catch (error) {
    leftBusy = error instanceof ExtractionFailure && error.leavesParserBusy;
    throw error;
  } finally {
    if (leftBusy) loadingTask.destroy().catch(() => undefined);
    else await loadingTask.destroy();
  }
}

type PdfPage = Awaited<ReturnType<Awaited<ReturnType<PdfJs['getDocument']>['promise']>['getPage']>>;
type TextContent = Awaited<ReturnType<PdfPage['getTextContent']>>;

async function readPageLines(
  document: Awaited<ReturnType<PdfJs['getDocument']>['promise']>,
  pageNumber: number,
  maxItems: number,
): Promise<string[]> {
  let page;
  try {
    page = await document.getPage(pageNumber);
    return pageLines(await readPageText(page, pageNumber, maxItems));
  } catch (error) {
    if (error instanceof ExtractionFailure) throw error;
    throw new ExtractionFailure(reasons.pdfUnreadable);
  } finally {
    page?.cleanup();
  }
}

/** The page's text items as pdf.js streams them, given up on (and the stream cancelled) past `maxItems`. */
async function readPageText(page: PdfPage, pageNumber: number, maxItems: number): Promise<PositionedText[]> {
  const reader = (page.streamTextContent() as ReadableStream<TextContent>).getReader();
  const items: PositionedText[] = [];
  let seen = 0;
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    seen += chunk.value.items.length;
    if (seen > maxItems) {
      // pdf.js answers neither the cancel nor a destroy while its side of the stream waits to be read.
      reader.cancel().catch(() => undefined);
      throw new ExtractionFailure(reasons.pdfTooManyTextItems(pageNumber, maxItems), true);
    }
    for (const item of chunk.value.items) {
      if (!('str' in item)) continue;
      const [a, b, , , x, y] = item.transform as number[];
      items.push({ text: item.str, x, y, width: item.width, fontSize: Math.hypot(a, b) || item.height });
    }
  }
  return items;
}
