/**
 * A minimal zip writer for tests that need zips no library would write: decompression bombs, and
 * zips whose headers lie about their entries' sizes. Stored (method 0) or deflated (method 8)
 * entries, no zip64, no data descriptors.
 */
import { writeFileSync } from 'node:fs';
import { constants, crc32, deflateRawSync } from 'node:zlib';

export interface ZipEntry {
  name: string;
  /** The entry's bytes as they sit in the zip. */
  data: Buffer;
  method: 0 | 8;
  crc32: number;
  /** What the headers claim the entry unpacks to (a lie when it says so). */
  declaredSize: number;
}

export function deflatedEntry(name: string, content: string | Buffer): ZipEntry {
  const bytes = Buffer.from(content);
  return { name, data: deflateRawSync(bytes), method: 8, crc32: crc32(bytes), declaredSize: bytes.length };
}

const MIB = 1024 * 1024;

/**
 * An entry that inflates to `mebibytes` MiB of spaces from a stream of about 1 KiB per MiB, built
 * without ever holding the inflated bytes: one MiB deflated with a full flush (which ends byte-aligned
 * and resets the dictionary, so the block can be repeated as is), that block `mebibytes` times, then an
 * empty final block. Declares `declaredSize` (the truth by default). Its CRC is 0: yauzl does not check
 * CRCs, and nothing here reads such an entry to its end.
 */
export function spacesBombEntry(name: string, mebibytes: number, declaredSize = mebibytes * MIB): ZipEntry {
  const oneMebibyte = deflateRawSync(Buffer.alloc(MIB, 0x20), { finishFlush: constants.Z_FULL_FLUSH });
  const finalEmptyBlock = Buffer.from([0x03, 0x00]);
  const data = Buffer.concat([...Array.from({ length: mebibytes }, () => oneMebibyte), finalEmptyBlock]);
  return { name, data, method: 8, crc32: 0, declaredSize };
}

export function zipBytes(entries: readonly ZipEntry[]): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(0x0800, 6); // flags: UTF-8 names
    local.writeUInt16LE(entry.method, 8);
    local.writeUInt32LE(0, 10); // time and date
    local.writeUInt32LE(entry.crc32 >>> 0, 14);
    local.writeUInt32LE(entry.data.length, 18);
    local.writeUInt32LE(entry.declaredSize, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(20, 4); // made by
    header.writeUInt16LE(20, 6);
    header.writeUInt16LE(0x0800, 8);
    header.writeUInt16LE(entry.method, 10);
    header.writeUInt32LE(0, 12);
    header.writeUInt32LE(entry.crc32 >>> 0, 16);
    header.writeUInt32LE(entry.data.length, 20);
    header.writeUInt32LE(entry.declaredSize, 24);
    header.writeUInt16LE(name.length, 28);
    header.writeUInt32LE(offset, 42);
    central.push(header, name);
    parts.push(local, name, entry.data);
    offset += local.length + name.length + entry.data.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, directory, end]);
}

export function writeZip(path: string, entries: readonly ZipEntry[]): void {
  writeFileSync(path, zipBytes(entries));
}

/** The parts that make a zip look like a Word file to anything reading its directory. */
export const WORD_CONTENT_TYPES = deflatedEntry(
  '[Content_Types].xml',
  '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
    '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
);
