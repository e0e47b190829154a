/**
 * `node [--max-old-space-size=…] extract-in-child.js <path> <type> <maxUnpackedBytes>`: extracts one
 * file and prints `{"failure": reason}` or `{"chars": n}` with its peak resident memory; exits 0 on either,
 * so a test can tell a refused file from a crash (an out-of-memory abort exits non-zero).
 */
import { type DocumentFileType, ExtractionFailure, extractDocument } from '@pylon/knowledge/extraction';

/** The process's peak resident set: the heap limit does not cover buffers, which is where an inflate would land. */
function peakRss(): number {
  return process.resourceUsage().maxRSS * 1024;
}

async function main(): Promise<void> {
  const [path, type, maxUnpackedBytes] = process.argv.slice(2);
  const limits = {
    maxTextChars: 1_000_000,
    maxUnpackedBytes: Number(maxUnpackedBytes),
    maxInflatedStreamBytes: Number(maxUnpackedBytes),
    maxPdfPages: 1_000,
    maxTextItemsPerPage: 50_000,
  };
  try {
    const { text } = await extractDocument(path, type as DocumentFileType, { limits });
    console.log(JSON.stringify({ chars: text.length, maxRssBytes: peakRss() }));
  } catch (error) {
    if (!(error instanceof ExtractionFailure)) throw error;
    console.log(JSON.stringify({ failure: error.message, maxRssBytes: peakRss() }));
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
