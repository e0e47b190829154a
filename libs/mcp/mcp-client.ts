import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { PrivateTargets } from '@pylon/webhooks';
import { guardedFetch } from './guarded-fetch';

/** Where an MCP server is and how to reach it: its URL, the headers it needs (plain, in memory only), the policy. */
export interface McpEndpoint {
  url: string;
  headers: Record<string, string>;
  privateTargets: PrivateTargets;
  /** Each request to the server (the handshake, a listing, a call) may take this long. */
  timeoutMs: number;
  signal?: AbortSignal;
}

const CLIENT_INFO = { name: 'pylon', version: '1.0.0' };

/**
 * Connects to the server with the official SDK (Streamable HTTP; SSE when the server answers the
 * Streamable HTTP handshake with a 4xx, as servers of the 2024-11-05 protocol do), runs `work` and
 * closes the session.
 */
export async function withMcpClient<T>(endpoint: McpEndpoint, work: (client: Client) => Promise<T>): Promise<T> {
  const fetch = guardedFetch(endpoint.privateTargets);
  const requestInit: RequestInit = { headers: endpoint.headers };
  const options = { timeout: endpoint.timeoutMs, ...(endpoint.signal ? { signal: endpoint.signal } : {}) };
  const url = new URL(endpoint.url);
  let client = new Client(CLIENT_INFO);
  const streamable = new StreamableHTTPClientTransport(url, { fetch, requestInit });
  try {
    await client.connect(streamable, options);
  } catch (error) {
    await client.close().catch(() => undefined);
    if (!(error instanceof StreamableHTTPError) || error.code === undefined || error.code < 400 || error.code >= 500) throw error;
    client = new Client(CLIENT_INFO);
    await client.connect(new SSEClientTransport(url, { fetch, requestInit, eventSourceInit: { fetch } }), options);
  }
  try {
    return await work(client);
  } finally {
    if (client.transport instanceof StreamableHTTPClientTransport) await client.transport.terminateSession().catch(() => undefined);
    await client.close().catch(() => undefined);
  }
}
