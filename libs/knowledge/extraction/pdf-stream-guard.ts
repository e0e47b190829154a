import { constants, inflateRawSync } from 'node:zlib';
import { reasons } from './reasons';
import { ExtractionFailure, type ExtractionLimits } from './types';

/** How far before a `stream` keyword its dictionary may start (dictionaries are short; a longer one is not looked into). */
const DICTIONARY_WINDOW = 8 * 1024;
const LEADING_FLATE_FILTERS = /\/Filter\s*(?:\[\s*)?((?:\/FlateDecode\s*)+)/;
const DIRECT_LENGTH = /\/Length\s+(\d+)(?!\s+\d+\s+R)/;

/**
 * Refuses a PDF whose Flate-compressed streams (page contents, images, object streams, fonts) would
 * inflate past the limits, before pdf.js inflates any of them into memory: each stream is inflated
 * here once, into a buffer that may not grow past what is left of the limit. Object streams cannot
 * hold streams, so the file's top-level streams are all there is. A stream this cannot read is left
 * to pdf.js, which says whether the file is damaged.
 */
export function guardPdfStreams(bytes: Buffer, limits: Pick<ExtractionLimits, 'maxInflatedStreamBytes' | 'maxUnpackedBytes'>): void {
  let inflatedInAll = 0;
  for (const stream of flateStreams(bytes)) {
    let data = stream.data;
    for (let pass = 0; pass < stream.flatePasses; pass++) {
      const allowed = Math.min(limits.maxInflatedStreamBytes, limits.maxUnpackedBytes - inflatedInAll);
      const inflated = inflateWithin(data, allowed);
      if (inflated === 'too large') {
        throw new ExtractionFailure(
          allowed < limits.maxInflatedStreamBytes
            ? reasons.unpacksTooLarge(limits.maxUnpackedBytes)
            : reasons.streamTooLarge(limits.maxInflatedStreamBytes),
        );
      }
      if (inflated === 'unreadable') break;
      inflatedInAll += inflated.byteLength;
      data = inflated;
    }
  }
}

interface FlateStream {
  data: Buffer;
  /** How many FlateDecode filters come first in its chain (usually 1). */
  flatePasses: number;
}

function* flateStreams(bytes: Buffer): Generator<FlateStream> {
  let at = 0;
  while ((at = bytes.indexOf('stream', at, 'latin1')) >= 0) {
    const keyword = at;
    at += 'stream'.length;
    if (keyword >= 3 && bytes.toString('latin1', keyword - 3, keyword) === 'end') continue;
    const dataStart = afterEndOfLine(bytes, at);
    if (dataStart < 0 || !precededByDictionaryEnd(bytes, keyword)) continue;
    const dictionary = dictionaryBefore(bytes, keyword);
    const filters = LEADING_FLATE_FILTERS.exec(dictionary);
    const dataEnd = streamEnd(bytes, dataStart, dictionary);
    at = dataEnd;
    if (filters) yield { data: bytes.subarray(dataStart, dataEnd), flatePasses: filters[1].match(/FlateDecode/g)!.length };
  }
}

/** Where a stream's data begins: after the end of line that must follow `stream`, or -1 when none does. */
function afterEndOfLine(bytes: Buffer, at: number): number {
  if (bytes[at] === 0x0d) return bytes[at + 1] === 0x0a ? at + 2 : at + 1;
  return bytes[at] === 0x0a ? at + 1 : -1;
}

function precededByDictionaryEnd(bytes: Buffer, keyword: number): boolean {
  let at = keyword - 1;
  while (at >= 0 && isWhitespace(bytes[at])) at--;
  return at >= 1 && bytes[at] === 0x3e && bytes[at - 1] === 0x3e;
}

function dictionaryBefore(bytes: Buffer, keyword: number): string {
  const window = bytes.toString('latin1', Math.max(0, keyword - DICTIONARY_WINDOW), keyword);
  const object = window.lastIndexOf('obj');
  return object >= 0 ? window.slice(object) : window;
}

/** The stream's end by its direct /Length when `endstream` follows there, else by the next `endstream`. */
function streamEnd(bytes: Buffer, dataStart: number, dictionary: string): number {
  const declared = DIRECT_LENGTH.exec(dictionary);
  if (declared) {
    const end = dataStart + Number(declared[1]);
    let after = end;
    while (after < bytes.length && isWhitespace(bytes[after])) after++;
    if (end <= bytes.length && bytes.toString('latin1', after, after + 'endstream'.length) === 'endstream') return end;
  }
  const next = bytes.indexOf('endstream', dataStart, 'latin1');
  return next < 0 ? bytes.length : next;
}

/**
 * A zlib stream's deflate data inflated without its checksum checked, as PDF readers do: a stream whose
 * Adler-32 is wrong still inflates in pdf.js, so it must count here too.
 */
function inflateWithin(data: Buffer, maxBytes: number): Buffer | 'too large' | 'unreadable' {
  if (data.length < 2 || (data[0] & 0x0f) !== 8 || (data[0] * 256 + data[1]) % 31 !== 0) return 'unreadable';
  try {
    return inflateRawSync(data.subarray(2), { maxOutputLength: Math.max(1, maxBytes), finishFlush: constants.Z_SYNC_FLUSH });
  } catch (error) {
    return (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' ? 'too large' : 'unreadable';
  }
}

function isWhitespace(byte: number | undefined): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09 || byte === 0x0c || byte === 0x00;
}
