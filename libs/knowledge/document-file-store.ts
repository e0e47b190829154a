import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, type ReadStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Injectable } from '@nestjs/common';
import { PylonConfig } from '@pylon/config';

/** An original as stored: its key in the store, its size and its SHA-256 (what makes a retried upload the same). */
export interface StoredFile {
  key: string;
  size: number;
  sha256: string;
}

/** The stream carried more than the store accepts for one file. */
export class FileTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`the file is larger than ${maxBytes} bytes`);
  }
}

const KEY = /^[0-9a-f-]{36}$/;

/**
 * The originals of uploaded documents, in the media store beside the videos (MEDIA_DIR/knowledge), one
 * file per upload named by 122 random bits. Never published as static media: a file is read only through
 * its document, which is the organisation's own. API and workers share MEDIA_DIR, as for videos.
 */
@Injectable()
export class DocumentFileStore {
  private readonly root: string;

  constructor(config: PylonConfig) {
    this.root = join(config.mediaDir, 'knowledge');
  }

  /**
   * Writes the stream to a new file, refusing (and removing) it past `maxBytes`. Written under a dot-name
   * first, so a file that is not whole never has a key.
   */
  async save(stream: Readable, maxBytes: number, isTruncated: () => boolean = () => false): Promise<StoredFile> {
    await mkdir(this.root, { recursive: true });
    const key = randomUUID();
    const partial = join(this.root, `.${key}.part`);
    const hash = createHash('sha256');
    let size = 0;
    const measure = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        if (size > maxBytes) return done(new FileTooLargeError(maxBytes));
        hash.update(chunk);
        done(null, chunk);
      },
    });
    try {
      await pipeline(stream, measure, createWriteStream(partial, { flags: 'wx' }));
      // A multipart reader stops at its own limit and ends the stream early instead of failing it.
      if (isTruncated()) throw new FileTooLargeError(maxBytes);
      await rename(partial, this.path(key));
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
    return { key, size, sha256: hash.digest('hex') };
  }

  path(key: string): string {
    if (!KEY.test(key)) throw new Error(`not a document file key: ${key}`);
    return join(this.root, key);
  }

  /** The stored original and its size, or null when it is gone. */
  async open(key: string): Promise<{ stream: ReadStream; size: number } | null> {
    const path = this.path(key);
    try {
      const { size } = await stat(path);
      return { stream: createReadStream(path), size };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async remove(key: string): Promise<void> {
    await rm(this.path(key), { force: true });
  }
}
