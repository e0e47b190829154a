import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

export interface McpToolCallSeen {
  tool: string;
  arguments: Record<string, unknown>;
  headers: IncomingHttpHeaders;
}

/**
 * A real MCP server on loopback, built with the SDK's own McpServer and Streamable HTTP transport
 * (stateless: a server and a transport per request, as the SDK's examples do). Its tools:
 * - `lookup_order {order_id}`: "order <id>: shipped by DHL";
 * - `fail_always {reason?}`: throws, so the SDK answers an error result;
 * - `slow_lookup {order_id}`: waits `slowMs` before answering like lookup_order (for a worker killed mid-call);
 * - `big_report {}`: 50 000 characters;
 * - `secret_tool {}`: not in a version's allowed_tools in the tests.
 * Every request's headers and every tool call are recorded. `sseUrl` serves the same tools over the older
 * HTTP+SSE transport only (GET it for the stream, POST to /messages; a POST to it is 405), as servers of
 * the 2024-11-05 protocol do.
 */
export class TestMcpServer {
  readonly calls: McpToolCallSeen[] = [];
  readonly requestHeaders: IncomingHttpHeaders[] = [];
  slowMs = 4_000;
  private server!: Server;
  private readonly sseSessions = new Map<string, SSEServerTransport>();
  url!: string;
  sseUrl!: string;

  static async start(): Promise<TestMcpServer> {
    const mcp = new TestMcpServer();
    mcp.server = createServer(async (request, response) => {
      mcp.requestHeaders.push(request.headers);
      const path = new URL(request.url ?? '/', 'http://localhost');
      if (path.pathname === '/sse' && request.method === 'GET') {
        const transport = new SSEServerTransport('/messages', response);
        mcp.sseSessions.set(transport.sessionId, transport);
        response.on('close', () => mcp.sseSessions.delete(transport.sessionId));
        await mcp.mcpServer(request.headers).connect(transport);
        return;
      }
      if (path.pathname === '/messages' && request.method === 'POST') {
        const transport = mcp.sseSessions.get(path.searchParams.get('sessionId') ?? '');
        if (!transport) {
          response.writeHead(404).end();
          return;
        }
        let message = '';
        for await (const chunk of request) message += chunk;
        await transport.handlePostMessage(request, response, JSON.parse(message));
        return;
      }
      if (request.method !== 'POST' || path.pathname === '/sse') {
        response.writeHead(405, { allow: 'POST' }).end();
        return;
      }
      let body = '';
      for await (const chunk of request) body += chunk;
      const server = mcp.mcpServer(request.headers);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      response.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(request, response, JSON.parse(body));
    });
    await new Promise<void>((resolve) => mcp.server.listen(0, '127.0.0.1', resolve));
    mcp.url = `http://127.0.0.1:${(mcp.server.address() as AddressInfo).port}/mcp`;
    mcp.sseUrl = `http://127.0.0.1:${(mcp.server.address() as AddressInfo).port}/sse`;
    return mcp;
  }

  callsOf(tool: string): McpToolCallSeen[] {
    return this.calls.filter((call) => call.tool === tool);
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private mcpServer(headers: IncomingHttpHeaders): McpServer {
    const server = new McpServer({ name: 'pylon-test-mcp', version: '1.0.0' });
    const seen = (tool: string, args: Record<string, unknown>) => this.calls.push({ tool, arguments: args, headers });
    server.registerTool(
      'lookup_order',
      { description: 'Finds an order by its id.', inputSchema: { order_id: z.string().describe('The order id') } },
      async ({ order_id }) => {
        seen('lookup_order', { order_id });
        return { content: [{ type: 'text', text: `order ${order_id}: shipped by DHL` }] };
      },
    );
    server.registerTool('fail_always', { description: 'Always fails.', inputSchema: { reason: z.string().optional() } }, async (args) => {
      seen('fail_always', args);
      throw new Error('the warehouse database is offline');
    });
    server.registerTool('slow_lookup', { description: 'Finds an order slowly.', inputSchema: { order_id: z.string() } }, async ({ order_id }) => {
      seen('slow_lookup', { order_id });
      await new Promise((resolve) => setTimeout(resolve, this.slowMs));
      return { content: [{ type: 'text', text: `order ${order_id}: found slowly` }] };
    });
    server.registerTool('big_report', { description: 'A very long report.', inputSchema: {} }, async () => {
      seen('big_report', {});
      return { content: [{ type: 'text', text: 'R'.repeat(50_000) }] };
    });
    server.registerTool('secret_tool', { description: 'Not for agents.', inputSchema: {} }, async () => {
      seen('secret_tool', {});
      return { content: [{ type: 'text', text: 'secret' }] };
    });
    return server;
  }
}
