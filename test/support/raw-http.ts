import { connect } from 'node:net';

export interface RawResponse {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: string;
}

/**
 * Sends bytes as they are over a fresh TCP connection and reads the one response, for requests an
 * HTTP client would refuse to send (a 20 kB header, bad percent-encoding, an unfinished body).
 * The request should carry `Connection: close`; the server closing the connection ends the read.
 */
export function sendRaw(baseUrl: string, request: string, timeoutMs = 10_000): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
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
      const text = Buffer.concat(chunks).toString('utf8');
      const headEnd = text.indexOf('\r\n\r\n');
      if (headEnd < 0) return reject(new Error(`no HTTP response: ${JSON.stringify(text.slice(0, 200))}`));
      const [statusLine, ...fields] = text.slice(0, headEnd).split('\r\n');
      const headers: Record<string, string> = {};
      for (const field of fields) {
        const colon = field.indexOf(':');
        headers[field.slice(0, colon).trim().toLowerCase()] = field.slice(colon + 1).trim();
      }
      resolve({ status: Number(statusLine!.split(' ')[1]), headers, body: text.slice(headEnd + 4) });
    });
    socket.write(request);
  });
}
