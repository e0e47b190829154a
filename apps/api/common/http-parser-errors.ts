import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { ErrorCode } from '@pylon/contracts';
import { errorBodyOf, statusOf } from './error-status';

/**
 * What Node's HTTP server answers by itself, before Fastify sees a request: a request it cannot parse,
 * one not received within the request timeout, head fields beyond `maxHeaderSize` (a 20 kB path or
 * header), and an `Expect` header it cannot meet. There is no request or reply object then, so the
 * response is written here, with the body every other error has.
 */

/** Node's error codes (see `server.on('clientError')`), with the status Node itself would answer. */
function codeOfClientError(nodeCode: string | undefined): ErrorCode {
  switch (nodeCode) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return ErrorCode.RequestTimeout;
    case 'HPE_HEADER_OVERFLOW':
      return ErrorCode.HeaderFieldsTooLarge;
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return ErrorCode.PayloadTooLarge;
    default:
      return ErrorCode.InvalidRequest;
  }
}

function errorHead(code: ErrorCode, body: string): { status: number; headers: Record<string, string> } {
  return {
    status: statusOf(code),
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(Buffer.byteLength(body)), Connection: 'close' },
  };
}

/** A whole HTTP/1.1 error response, for a socket no request or reply object exists for. */
function rawErrorResponse(code: ErrorCode): string {
  const body = errorBodyOf(code);
  const { status, headers } = errorHead(code, body);
  const head = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${head}\r\n${body}`;
}

/** Fastify's `clientErrorHandler`. */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  // Node's own rule: nothing is written into a response already under way on this connection.
  const inFlight = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) {
    socket.write(rawErrorResponse(codeOfClientError(error.code)));
  }
  socket.destroy(error);
}

/** An `Expect` other than `100-continue`: Node would answer 417 with an empty body. */
export function answerUnmetExpectations(server: Server): void {
  server.on('checkExpectation', (_request: IncomingMessage, response: ServerResponse) => {
    const body = errorBodyOf(ErrorCode.ExpectationFailed);
    const { status, headers } = errorHead(ErrorCode.ExpectationFailed, body);
    response.writeHead(status, headers).end(body);
  });
}

/** How long a new connection's first bytes are waited for before Node's parser gets the connection anyway. */
const FIRST_BYTES_WAIT_MS = 1_000;

/**
 * A request line without an HTTP version (HTTP/0.9) that no blank line follows leaves Node's parser
 * waiting for the rest of a head (408 only after REQUEST_TIMEOUT_MS). So the first bytes of each
 * connection are looked at before the parser gets them: a complete first line without an HTTP version is
 * answered 400 at once. Anything else is handed to the parser untouched (the protocol-sniffing pattern:
 * pause, unshift, emit to the HTTP server's own connection listeners).
 */
export function refuseVersionlessRequestLines(server: Server): void {
  const parse = server.listeners('connection') as Array<(socket: Socket) => void>;
  server.removeAllListeners('connection');
  server.on('connection', (socket: Socket) => {
    let handedOver = false;
    const handOver = (firstBytes?: Buffer) => {
      if (handedOver) return;
      handedOver = true;
      clearTimeout(timer);
      socket.off('data', onFirstBytes);
      socket.pause();
      if (firstBytes) socket.unshift(firstBytes);
      for (const listener of parse) listener.call(server, socket);
      process.nextTick(() => socket.resume());
    };
    const onFirstBytes = (chunk: Buffer) => {
      if (isVersionlessRequestLine(chunk)) {
        handedOver = true;
        clearTimeout(timer);
        socket.end(rawErrorResponse(ErrorCode.InvalidRequest));
        return;
      }
      handOver(chunk);
    };
    const timer = setTimeout(() => handOver(), FIRST_BYTES_WAIT_MS);
    socket.once('data', onFirstBytes);
    socket.once('close', () => clearTimeout(timer));
  });
}

/** Whether the bytes hold a whole first line, of a method and a target and no `HTTP/x.y` after them. */
function isVersionlessRequestLine(bytes: Buffer): boolean {
  const end = bytes.indexOf(0x0a);
  if (end === -1) return false;
  const line = bytes.subarray(0, end).toString('latin1').replace(/\r$/, '');
  return /^[A-Z]+ \S+$/.test(line);
}
