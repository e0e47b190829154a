import { Readable, Transform, pipeline, type TransformCallback } from 'node:stream';
import * as yauzl from 'yauzl';

/** How much of the start of a file detection reads. */
const HEAD_BYTES = 64 * 1024;

/**
 * How much of its end: where a zip keeps its central directory. A Word file's takes tens of bytes per
 * part and has at most a few thousand parts (extraction refuses more than 10 000).
 */
const TAIL_BYTES = 1024 * 1024;

/** The bytes of a file that detection reads: its head, its tail and its size. */
export interface FileSample {
  head: Buffer;
  tail: Buffer;
  size: number;
}

/** Passes a file's bytes through unchanged, keeping its sample as they go by. */
export class SamplingStream extends Transform {
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  private readonly tail: Buffer[] = [];
  private tailBytes = 0;
  private size = 0;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.size += chunk.length;
    if (this.headBytes < HEAD_BYTES) {
      const part = chunk.subarray(0, HEAD_BYTES - this.headBytes);
      this.head.push(part);
      this.headBytes += part.length;
    }
    this.tail.push(chunk);
    this.tailBytes += chunk.length;
    while (this.tailBytes - this.tail[0]!.length >= TAIL_BYTES) this.tailBytes -= this.tail.shift()!.length;
    done(null, chunk);
  }

  /** The sample of the bytes that went through: of the whole file once the stream has ended. */
  sample(): FileSample {
    const tail = Buffer.concat(this.tail);
    return { head: Buffer.concat(this.head), tail: tail.subarray(Math.max(0, tail.length - TAIL_BYTES)), size: this.size };
  }
}

/** `source`, sampled as it is read: the stream to read, and the sample once it has ended. */
export function sampling(source: Readable): { stream: Readable; sample: () => FileSample } {
  const sampler = new SamplingStream();
  // Either side failing destroys both; the reader of `stream` sees the error.
  const stream = pipeline(source, sampler, () => {});
  return { stream, sample: () => sampler.sample() };
}

/** A sample's bytes as a zip reader asks for them by range: a range outside its head and its tail was not kept. */
export class SampleReader extends yauzl.RandomAccessReader {
  constructor(private readonly file: FileSample) {
    super();
  }

  override _readStreamForRange(start: number, end: number): Readable {
    const tailStart = this.file.size - this.file.tail.length;
    if (start >= tailStart) return Readable.from([this.file.tail.subarray(start - tailStart, end - tailStart)]);
    if (end <= this.file.head.length) return Readable.from([this.file.head.subarray(start, end)]);
    const unread = new Readable({ read() {} });
    unread.destroy(new Error(`bytes ${start}-${end} of the file were not sampled`));
    return unread;
  }
}
