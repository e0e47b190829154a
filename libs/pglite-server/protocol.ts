/** Postgres wire protocol (v3) framing and the few messages the server builds itself. */

export const SSL_REQUEST_CODE = 80877103;
export const GSSENC_REQUEST_CODE = 80877104;
export const CANCEL_REQUEST_CODE = 80877102;

const MAX_STARTUP_LENGTH = 10_000;
const MAX_MESSAGE_LENGTH = 1 << 30;

export const MessageType = {
  Bind: 0x42, // B
  Close: 0x43, // C
  CopyData: 0x64, // d
  CopyDone: 0x63, // c
  CopyFail: 0x66, // f
  Describe: 0x44, // D
  Execute: 0x45, // E
  Flush: 0x48, // H
  Parse: 0x50, // P
  Query: 0x51, // Q
  Sync: 0x53, // S
  Terminate: 0x58, // X
  ReadyForQuery: 0x5a, // Z (backend)
} as const;

export const TxStatus = {
  Idle: 0x49, // I
  InTransaction: 0x54, // T
  Failed: 0x45, // E
} as const;

export type Frame =
  /** SSLRequest, GSSENCRequest or CancelRequest: untyped, answered by the server itself. */
  { kind: 'ssl-request' | 'gssenc-request' | 'cancel-request' } | { kind: 'startup'; data: Buffer } | { kind: 'message'; type: number; data: Buffer };

export class ProtocolError extends Error {}

/** Splits a client's byte stream into whole frontend messages. */
export class FrontendFramer {
  private chunks: Buffer[] = [];
  private buffered = 0;
  private awaitingStartup = true;

  push(chunk: Buffer): Frame[] {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    const frames: Frame[] = [];
    for (let frame = this.next(); frame; frame = this.next()) frames.push(frame);
    return frames;
  }

  private next(): Frame | undefined {
    // Before (and during SSL negotiation of) startup, messages have no type byte.
    const headerSize = this.awaitingStartup ? 8 : 5;
    if (this.buffered < headerSize) return undefined;
    const head = this.peek(headerSize);
    const length = this.awaitingStartup ? head.readInt32BE(0) : head.readInt32BE(1);
    const [min, max] = this.awaitingStartup ? [8, MAX_STARTUP_LENGTH] : [4, MAX_MESSAGE_LENGTH];
    if (length < min || length > max) throw new ProtocolError(`invalid message length ${length}`);
    const total = this.awaitingStartup ? length : length + 1;
    if (this.buffered < total) return undefined;
    const data = this.take(total);
    if (!this.awaitingStartup) return { kind: 'message', type: data[0], data };

    switch (data.readInt32BE(4)) {
      case SSL_REQUEST_CODE:
        return { kind: 'ssl-request' };
      case GSSENC_REQUEST_CODE:
        return { kind: 'gssenc-request' };
      case CANCEL_REQUEST_CODE:
        return { kind: 'cancel-request' };
      default:
        this.awaitingStartup = false;
        return { kind: 'startup', data };
    }
  }

  private peek(size: number): Buffer {
    if (this.chunks[0].length < size) this.coalesce();
    return this.chunks[0];
  }

  private take(size: number): Buffer {
    if (this.chunks[0].length < size) this.coalesce();
    const first = this.chunks[0];
    const taken = first.subarray(0, size);
    if (first.length === size) this.chunks.shift();
    else this.chunks[0] = first.subarray(size);
    this.buffered -= size;
    return taken;
  }

  private coalesce(): void {
    this.chunks = [Buffer.concat(this.chunks, this.buffered)];
  }
}

/** Status byte of the last ReadyForQuery in a chunk of whole backend messages, if any. */
export function lastReadyStatus(output: Buffer): number | undefined {
  let status: number | undefined;
  let offset = 0;
  while (offset + 5 <= output.length) {
    const length = output.readInt32BE(offset + 1);
    if (output[offset] === MessageType.ReadyForQuery && length === 5 && offset + 6 <= output.length) {
      status = output[offset + 5];
    }
    offset += 1 + length;
  }
  return status;
}

export function readCString(buffer: Buffer, offset: number): { value: string; end: number } {
  const nul = buffer.indexOf(0, offset);
  if (nul < 0) throw new ProtocolError('unterminated string in message');
  return { value: buffer.toString('utf8', offset, nul), end: nul + 1 };
}

export function cString(value: string): Buffer {
  return Buffer.from(`${value}\0`, 'utf8');
}

export function message(type: number, ...body: Buffer[]): Buffer {
  const length = body.reduce((sum, part) => sum + part.length, 4);
  const header = Buffer.alloc(5);
  header[0] = type;
  header.writeInt32BE(length, 1);
  return Buffer.concat([header, ...body], length + 1);
}

export const syncMessage = (): Buffer => message(MessageType.Sync);

export const queryMessage = (sql: string): Buffer => message(MessageType.Query, cString(sql));

export const parseMessage = (sql: string): Buffer => message(MessageType.Parse, cString(''), cString(sql), Buffer.from([0, 0]));

export const closeStatementMessage = (name: string): Buffer => message(MessageType.Close, Buffer.from('S'), cString(name));

/** Backend ErrorResponse ('E'); FATAL makes clients drop the connection. */
export function errorResponse(severity: 'ERROR' | 'FATAL', code: string, text: string): Buffer {
  const field = (tag: string, value: string): Buffer => Buffer.concat([Buffer.from(tag), cString(value)]);
  return message(
    0x45, // E: ErrorResponse
    field('S', severity),
    field('V', severity),
    field('C', code),
    field('M', text),
    Buffer.from([0]),
  );
}
