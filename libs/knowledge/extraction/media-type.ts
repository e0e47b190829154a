import type { Buffer } from 'node:buffer';
// file-type is ESM-only and this code compiles to CommonJS: its types are reached as the ESM resolution sees them.
import type * as FileType from 'file-type' with { 'resolution-mode': 'import' };

/** The media type file-type reads from a file's first bytes (`image/png`, `application/zip`…), if any. */
export async function sniffMediaType(head: Buffer): Promise<string | undefined> {
  // Node 22 can require() an ES module that has no top-level await, as file-type is.
  const { fileTypeFromBuffer } = require('file-type') as typeof FileType;
  return (await fileTypeFromBuffer(head))?.mime;
}
