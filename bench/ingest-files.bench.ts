/**
 * Knowledge from files: PDFs uploaded over the API (`POST /api/v1/knowledge/files`, C at a time) until every
 * document is ready (extracted, chunked, embedded by the offline embedder, published), against pdf.js alone
 * (pdfjs-dist, the library Pylon extracts with) reading the text of every page of the same files in this
 * process, one file after another. Then one 200-page PDF through Pylon while the worker's resident memory is
 * sampled, beside pdf.js alone on the same file in this process.
 */
import { readFileSync } from 'node:fs';
import { Client, Connection } from '@temporalio/client';
import { knowledgeIngestWorkflowId } from '@pylon/contracts';
import { Http } from '../test/support/http';
import { Stack } from '../test/support/stack';
import { createTenant, waitForDocument, type Tenant } from '../test/support/tenant';
import { pdfWithLines, uploadForm } from '../test/support/document-files';
import {
  BENCH_LIMITS_ENV,
  envInt,
  log,
  round,
  runConcurrently,
  workflowTimeline,
  type BenchContext,
  type Benchmark,
  type BenchReport,
} from './support';

const LINES_PER_PAGE = 40;
const MIB = 1024 * 1024;

/** A page of prose-like lines, different on every page so nothing compresses away. */
function pageLines(file: number, page: number): string[] {
  return Array.from(
    { length: LINES_PER_PAGE },
    (_, line) =>
      `File ${file} page ${page} line ${line}: the harbour survey counted ${(file * 31 + page * 7 + line) % 97} anchors at dock ${line % 9}.`,
  );
}

async function pdf(file: number, pages: number): Promise<Buffer> {
  return Buffer.from(await pdfWithLines(Array.from({ length: pages }, (_, page) => pageLines(file, page + 1))));
}

/** pdf.js alone: every page's text items joined, as any caller of the library would. */
async function extractWithPdfJs(bytes: Buffer): Promise<{ pages: number; chars: number }> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const loading = pdfjs.getDocument({ data: new Uint8Array(bytes), verbosity: pdfjs.VerbosityLevel.ERRORS, disableFontFace: true });
  const document = await loading.promise;
  let chars = 0;
  try {
    for (let number = 1; number <= document.numPages; number++) {
      const page = await document.getPage(number);
      const content = await page.getTextContent();
      chars += content.items.map((item) => ('str' in item ? item.str : '')).join(' ').length;
      page.cleanup();
    }
    return { pages: document.numPages, chars };
  } finally {
    await loading.destroy();
  }
}

/** The largest resident set of `pids` seen while `work` runs, sampled every 20 ms (from /proc). */
async function peakRss<T>(pids: () => number[], work: () => Promise<T>): Promise<{ result: T; beforeMiB: number; peakMiB: number }> {
  const rss = () => pids().reduce((sum, pid) => sum + residentKiB(pid), 0) / 1024;
  const beforeMiB = rss();
  let peakMiB = beforeMiB;
  const sampler = setInterval(() => (peakMiB = Math.max(peakMiB, rss())), 20);
  try {
    const result = await work();
    peakMiB = Math.max(peakMiB, rss());
    return { result, beforeMiB: round(beforeMiB, 1), peakMiB: round(peakMiB, 1) };
  } finally {
    clearInterval(sampler);
  }
}

function residentKiB(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

export const ingestFilesBenchmark: Benchmark = {
  name: 'ingest-files',
  description:
    'PDFs uploaded and ingested (extract, chunk, embed offline, publish) vs pdf.js alone extracting the same files; worker memory on a 200-page PDF',
  budgetMinutes: () => 6,
  async run(context: BenchContext): Promise<BenchReport> {
    const files = envInt('BENCH_INGEST_FILES', 40);
    const pagesPerFile = envInt('BENCH_INGEST_PAGES', 10);
    const concurrency = envInt('BENCH_INGEST_CONCURRENCY', 4);
    const bigPages = envInt('BENCH_INGEST_BIG_PAGES', 200);
    log(`generating ${files} PDFs of ${pagesPerFile} pages and one of ${bigPages} pages`);
    const corpus = await Promise.all(Array.from({ length: files }, (_, i) => pdf(i, pagesPerFile)));
    const big = await pdf(files, bigPages);
    const corpusMiB = corpus.reduce((sum, bytes) => sum + bytes.length, 0) / MIB;
    const corpusPages = files * pagesPerFile;

    await extractWithPdfJs(corpus[0]!); // loads pdf.js once, outside the timing
    log(`baseline: pdf.js alone on ${files} files`);
    const baselineStart = performance.now();
    let baselineChars = 0;
    for (const bytes of corpus) baselineChars += (await extractWithPdfJs(bytes)).chars;
    const baselineSeconds = (performance.now() - baselineStart) / 1000;
    const baselineBig = await peakRss(
      () => [process.pid],
      () => extractWithPdfJs(big),
    );

    const stack = await Stack.start({ env: { ...BENCH_LIMITS_ENV } });
    const temporal = new Client({ connection: await Connection.connect({ address: context.infra.temporalAddress }) });
    try {
      const http = new Http(stack.url);
      const tenant: Tenant = await createTenant(http);
      const ingest = async (bytes: Buffer, name: string) => {
        const started = performance.now();
        const created = await http.post('/api/v1/knowledge/files', { token: tenant.key, form: uploadForm(bytes, name) });
        if (created.status !== 201) throw new Error(`upload ${name}: ${created.status} ${created.text}`);
        const document = await waitForDocument(http, tenant.key, created.body.doc_id, 300_000);
        if (document.status !== 'ready') throw new Error(`${name}: ${document.status} ${document.failure_reason}`);
        return { ...document, latencyMs: performance.now() - started };
      };
      await ingest(corpus[0]!, 'warm-up.pdf');
      log(`pylon: ${files} files, ${concurrency} uploads at a time, until every document is ready`);
      const pylonStart = performance.now();
      const { results } = await runConcurrently(files, concurrency, (index) => ingest(corpus[index]!, `file-${index}.pdf`));
      const pylonSeconds = (performance.now() - pylonStart) / 1000;
      const chunks = results.reduce((sum, document) => sum + (document.chunk_count as number), 0);
      const byLatency = [...results].sort((a, b) => a.latencyMs - b.latencyMs);
      const median = byLatency[Math.floor(byLatency.length / 2)]!;
      const medianDocument = {
        latencyMs: round(median.latencyMs, 1),
        ...(await workflowTimeline(temporal, knowledgeIngestWorkflowId(median.doc_id as string))),
      };

      log(`pylon: one ${bigPages}-page PDF (${round(big.length / MIB, 2)} MiB), sampling the worker's memory`);
      const workerPids = () => stack.worker.members.flatMap((worker) => (worker.child.pid ? [worker.child.pid] : []));
      const bigStart = performance.now();
      const pylonBig = await peakRss(workerPids, () => ingest(big, 'big.pdf'));
      const bigSeconds = (performance.now() - bigStart) / 1000;

      return {
        parameters: { files, pagesPerFile, concurrency, bigPages, embedder: 'local (offline)', goal: 'pages/s ratio ≥ 0.7' },
        rows: [
          { metric: 'pages/s', pylon: round(corpusPages / pylonSeconds, 1), baseline: round(corpusPages / baselineSeconds, 1) },
          { metric: 'MiB/s', pylon: round(corpusMiB / pylonSeconds, 3), baseline: round(corpusMiB / baselineSeconds, 3), digits: 3 },
          { metric: `${bigPages}-page PDF: seconds`, pylon: round(bigSeconds, 2), baseline: null, digits: 2 },
          {
            metric: `${bigPages}-page PDF: peak RSS (MiB)`,
            pylon: pylonBig.peakMiB,
            baseline: baselineBig.peakMiB,
            digits: 1,
          },
          {
            metric: `${bigPages}-page PDF: RSS growth (MiB)`,
            pylon: round(pylonBig.peakMiB - pylonBig.beforeMiB, 1),
            baseline: round(baselineBig.peakMiB - baselineBig.beforeMiB, 1),
            digits: 1,
          },
        ],
        pylon: {
          seconds: round(pylonSeconds, 2),
          documents: results.length,
          chunks,
          latencyMs: { p50: round(median.latencyMs, 1), max: round(byLatency[byLatency.length - 1]!.latencyMs, 1) },
          medianDocument,
          bigPdf: { ...pylonBig, result: undefined, seconds: round(bigSeconds, 2) },
        },
        baseline: { seconds: round(baselineSeconds, 2), chars: baselineChars, bigPdf: { ...baselineBig, result: undefined } },
        notes: [
          `corpus: ${files} PDFs × ${pagesPerFile} pages (pdf-lib, Helvetica, ${LINES_PER_PAGE} lines a page), ${round(corpusMiB, 2)} MiB in all`,
          'pylon = from the first upload to the last document ready: multipart upload streamed to the media store, type detection, the ingestion workflow (extraction activity with pdf.js and line grouping, chunking, offline embedding, publish in one transaction), polled over the API.',
          'baseline = pdf.js alone in this process, one file after another: getDocument, then getTextContent of every page.',
          "peak RSS: pylon = the worker process's resident set (sampled every 20 ms) while the 200-page PDF is ingested; baseline = this benchmark process while pdf.js alone reads it.",
        ],
      };
    } finally {
      await temporal.connection.close();
      await stack.stop();
    }
  },
};
