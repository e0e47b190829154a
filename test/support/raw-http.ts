import { connect, type Socket } from 'node:net';

export interface RawResponse {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: string;
}

function parseResponse(text: string): RawResponse {
  const headEnd = text.indexOf('\r\n\r\n');
  if (headEnd < 0) throw new Error(`no HTTP response: ${JSON.stringify(text.slice(0, 200))}`);
  const [statusLine, ...fields] = text.slice(0, headEnd).split('\r\n');
  const headers: Record<string, string> = {};
  for (const field of fields) {
    const colon = field.indexOf(':');
    headers[field.slice(0, colon).trim().toLowerCase()] = field.slice(colon + 1).trim();
  }
  return { status: Number(statusLine!.split(' ')[1]), headers, body: text.slice(headEnd + 4) };
}

/**
 * A TCP connection to the server for writing bytes as they are, and the one response read until the
 * server closes the connection (so requests should carry `Connection: close`).
 */
export function openRaw(baseUrl: string, timeoutMs = 10_000): { socket: Socket; connected: Promise<void>; response: Promise<RawResponse> } {
  const { hostname, port } = new URL(baseUrl);
  const socket = connect(Number(port), hostname);
  const connected = new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  const response = new Promise<RawResponse>((resolve, reject) => {
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete response within ${timeoutMs} ms: ${Buffer.concat(chunks).toString('latin1').slice(0, 200)}`));
    }, timeoutMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    // The server may close the connection before it has read the whole request: that is no failure here.
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      try {
        resolve(parseResponse(Buffer.concat(chunks).toString('utf8')));
      } catch (error) {
        reject(error);
      }
    });
  });
  return { socket, connected, response };
}

/** Sends a request an HTTP client would refuse to send (a 20 kB header, bad percent-encoding, an unfinished body). */
export function sendRaw(baseUrl: string, request: string, timeoutMs?: number): Promise<RawResponse> {
  const connection = openRaw(baseUrl, timeoutMs);
  connection.socket.write(request);
  return connection.response;
}

/** Resolves once the server no longer accepts connections (its listening socket is closed). */
export async function untilRefused(baseUrl: string, timeoutMs = 20_000): Promise<void> {
  const { hostname, port } = new URL(baseUrl);
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const refused = await new Promise<boolean>((resolve) => {
      const probe = connect(Number(port), hostname);
      probe.once('connect', () => {
        probe.destroy();
        resolve(false);
      });
      probe.once('error', () => resolve(true));
    });
    if (refused) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`${baseUrl} still accepts connections after ${timeoutMs} ms`);
}
