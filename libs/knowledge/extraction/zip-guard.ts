import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import * as yauzl from 'yauzl';
import { reasons } from './reasons';
import { ExtractionFailure, type ExtractionOptions } from './types';

/** An entry that big may not be compressed more than MAX_COMPRESSION_RATIO:1; smaller ones may (XML of spaces happens). */
const RATIO_CHECK_MIN_BYTES = 4 * 1024 * 1024;
const MAX_COMPRESSION_RATIO = 100;
/** Word files hold tens of parts, a few thousand with many images; more is a zip built to exhaust us by its directory. */
const MAX_ENTRIES = 10_000;

const ZIP_OPTIONS: yauzl.Options = { lazyEntries: true, autoClose: false, validateEntrySizes: true, strictFileNames: false };

function openZip(path: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.open(path, ZIP_OPTIONS, (error, zip) => (error ? reject(error) : resolve(zip)));
  });
}

async function readEntries(zip: yauzl.ZipFile): Promise<yauzl.Entry[]> {
  const entries: yauzl.Entry[] = [];
  for await (const entry of zip.eachEntry()) entries.push(entry);
  return entries;
}

/** Whether the zip's central directory lists `name`; false when the bytes `reader` reads are not a readable zip. */
export async function zipHoldsEntry(reader: yauzl.RandomAccessReader, size: number, name: string): Promise<boolean> {
  let zip: yauzl.ZipFile | undefined;
  try {
    zip = await yauzl.fromRandomAccessReaderPromise(reader, size, ZIP_OPTIONS);
    for await (const entry of zip.eachEntry()) if (entry.fileName === name) return true;
    return false;
  } catch {
    return false;
  } finally {
    zip?.close();
  }
}

/**
 * Refuses a zip that would unpack to more than `limits.maxUnpackedBytes` before anything inflates it
 * into memory (mammoth's jszip does): first by what its central directory declares (in all, and the
 * compression ratio of each big entry), then by inflating every entry as a stream into nothing, so a
 * zip that lies about its sizes is caught too (yauzl stops an entry at the first byte past what it
 * declares); the running count of bytes against the limit is a second line behind that check.
 * Requires `requiredEntry`; any other damage is `unreadable`.
 */
export async function guardZip(
  path: string,
  requiredEntry: string,
  unreadable: string,
  { limits, onProgress, signal }: ExtractionOptions,
): Promise<void> {
  let zip: yauzl.ZipFile;
  let entries: yauzl.Entry[];
  try {
    zip = await openZip(path);
  } catch {
    throw new ExtractionFailure(unreadable);
  }
  try {
    if (zip.entryCount > MAX_ENTRIES) throw new ExtractionFailure(reasons.tooManyParts(MAX_ENTRIES));
    try {
      entries = await readEntries(zip);
    } catch {
      throw new ExtractionFailure(unreadable);
    }
    checkDeclaredSizes(entries, limits.maxUnpackedBytes);
    if (!entries.some((entry) => entry.fileName === requiredEntry)) throw new ExtractionFailure(unreadable);
    let unpacked = 0;
    for (const [index, entry] of entries.entries()) {
      signal?.throwIfAborted();
      if (!entry.fileName.endsWith('/')) {
        unpacked = await inflateCounting(zip, entry, unpacked, limits.maxUnpackedBytes, unreadable, signal);
      }
      onProgress?.(index + 1, entries.length);
    }
  } finally {
    zip.close();
  }
}

function checkDeclaredSizes(entries: yauzl.Entry[], maxUnpackedBytes: number): void {
  let declared = 0;
  for (const entry of entries) {
    declared += entry.uncompressedSize;
    if (declared > maxUnpackedBytes) throw new ExtractionFailure(reasons.unpacksTooLarge(maxUnpackedBytes));
    if (entry.uncompressedSize > RATIO_CHECK_MIN_BYTES && entry.uncompressedSize > MAX_COMPRESSION_RATIO * Math.max(entry.compressedSize, 1)) {
      throw new ExtractionFailure(reasons.compressionRatio(MAX_COMPRESSION_RATIO));
    }
  }
}

/** Inflates one entry into nothing; returns the running total of bytes unpacked. */
async function inflateCounting(
  zip: yauzl.ZipFile,
  entry: yauzl.Entry,
  unpackedBefore: number,
  maxUnpackedBytes: number,
  unreadable: string,
  signal: AbortSignal | undefined,
): Promise<number> {
  let unpacked = unpackedBefore;
  const counter = new Writable({
    write(chunk: Buffer, _encoding, done) {
      unpacked += chunk.length;
      done(unpacked > maxUnpackedBytes ? new ExtractionFailure(reasons.unpacksTooLarge(maxUnpackedBytes)) : null);
    },
  });
  try {
    const stream = await zip.openReadStreamPromise(entry);
    await pipeline(stream, counter, { signal });
  } catch (error) {
    if (error instanceof ExtractionFailure || signal?.aborted) throw error;
    if (error instanceof Error && /too many bytes in the stream/.test(error.message)) throw new ExtractionFailure(reasons.sizesLie);
    throw new ExtractionFailure(unreadable);
  }
  return unpacked;
}
