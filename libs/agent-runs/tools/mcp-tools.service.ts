import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import {
  MCP_CALL_TIMEOUT_MS,
  MCP_LIST_TIMEOUT_MS,
  MCP_TOOL,
  mcpHeaderContext,
  splitMcpToolName,
  type AgentToolConfig,
  type McpServerTools,
  type McpToolConfig,
  type ToolCall,
} from '@pylon/contracts';
import { PylonConfig } from '@pylon/config';
import { AgentRepository } from '@pylon/agents';
import { AgentRunRepository } from '../repositories/agent-run.repository';
import { ConversationRepository } from '../repositories/conversation.repository';
import { RunEventRepository } from '../repositories/run-event.repository';
import { callResultText, cutToSize, listedTools, withMcpClient, type McpEndpoint } from '@pylon/mcp';
import { SecretBox } from '@pylon/secrets';
import { PrivateTargets } from '@pylon/webhooks';
import { RunNotFoundError } from '../run-errors';

/** What the workflow already knows of the run, saving reads: its version, and whether it is a conversation's turn (its items are kept). */
export interface RunHints {
  versionId?: string;
  inConversation?: boolean;
}

/** The run's log records a listing as this event: `{server_label, tools: [names]}` or `{server_label, error}`. */
export const MCP_LIST_TOOLS_EVENT = 'mcp_list_tools';

/** How many runs' version ids, and versions' MCP servers, each process keeps. */
const CACHE_SIZE = 1_000;

/**
 * A run's MCP tools: listing each server's tools before the first model turn, and calling one when the
 * model asks. Pylon is the client (the official SDK), every connection checked against the private-target
 * policy; the servers' headers are opened from their sealed form only in memory, for the request. What a
 * server or a tool does wrong (down, refused, an error result, a timeout) is an event of the run and
 * text for the model, never a failed run; only a cancellation or the database fails the activity.
 */
@Injectable()
export class McpToolsService {
  private readonly privateTargets: PrivateTargets;
  private readonly versionOfRun = new LRUCache<string, string>({ max: CACHE_SIZE });
  private readonly serversOfVersion = new LRUCache<string, McpToolConfig[]>({ max: CACHE_SIZE });

  constructor(
    private readonly runs: AgentRunRepository,
    private readonly agents: AgentRepository,
    private readonly events: RunEventRepository,
    private readonly conversations: ConversationRepository,
    private readonly secrets: SecretBox,
    config: PylonConfig,
  ) {
    this.privateTargets = PrivateTargets.parse(config.webhookAllowedPrivateTargets);
  }

  /** Every MCP server's tools (after allowed_tools), in the version's order; a server that fails has none and its error. */
  async listTools(orgId: string, runId: string, signal?: AbortSignal, versionId?: string): Promise<McpServerTools[]> {
    const servers = await this.servers(orgId, runId, versionId);
    const listings = await Promise.all(
      servers.map(async (server): Promise<McpServerTools> => {
        try {
          const listed = await withMcpClient(this.endpoint(server, MCP_LIST_TIMEOUT_MS, signal), (client) =>
            client.listTools(undefined, { timeout: MCP_LIST_TIMEOUT_MS, ...(signal ? { signal } : {}) }),
          );
          return { server_label: server.server_label, tools: listedTools(listed.tools, server.allowed_tools) };
        } catch (error) {
          if (signal?.aborted) throw error;
          return { server_label: server.server_label, tools: [], error: describe(error) };
        }
      }),
    );
    await this.events.append(
      orgId,
      runId,
      listings.map((listing) => ({
        type: MCP_LIST_TOOLS_EVENT,
        data: {
          server_label: listing.server_label,
          tools: listing.tools.map((tool) => tool.name),
          ...(listing.error !== undefined ? { error: listing.error } : {}),
        },
      })),
    );
    return listings;
  }

  /** One call's result as text for the model, cut to MCP_RESULT_MAX_CHARS; an error as {"error": "…"}. Recorded as the call's tool_result. */
  async callTool(orgId: string, runId: string, call: ToolCall, signal?: AbortSignal, run: RunHints = {}): Promise<string> {
    const named = splitMcpToolName(call.name);
    const server = named && (await this.servers(orgId, runId, run.versionId)).find((candidate) => candidate.server_label === named.serverLabel);
    let output: string;
    let failed = false;
    if (!named || !server) {
      output = JSON.stringify({ error: `unknown tool ${call.name}` });
      failed = true;
    } else if (server.allowed_tools !== null && !server.allowed_tools.includes(named.tool)) {
      output = JSON.stringify({ error: `${call.name} is not one of the tools this agent may call` });
      failed = true;
    } else {
      const args = parseArguments(call.arguments);
      if (args === null) {
        output = JSON.stringify({ error: 'the arguments must be a JSON object' });
        failed = true;
      } else {
        try {
          const result = await withMcpClient(this.endpoint(server, MCP_CALL_TIMEOUT_MS, signal), (client) =>
            client.callTool({ name: named.tool, arguments: args }, undefined, { timeout: MCP_CALL_TIMEOUT_MS, ...(signal ? { signal } : {}) }),
          );
          output = cutToSize(callResultText(result));
          failed = (result as { isError?: unknown }).isError === true;
        } catch (error) {
          if (signal?.aborted) throw error;
          output = JSON.stringify({ error: describe(error) });
          failed = true;
        }
      }
    }
    await this.events.append(orgId, runId, [
      {
        type: 'tool_result',
        data: { call_id: call.id, name: call.name, ...(failed ? { error: errorOf(output) } : { output }) },
      },
    ]);
    if (run.inConversation !== false)
      await this.conversations.appendItems(orgId, runId, [{ type: 'tool_output', data: { call_id: call.id, output } }]);
    return output;
  }

  /** The MCP servers of the run's version (versions never change: each is read once per process, as is a run's version id). */
  private async servers(orgId: string, runId: string, knownVersionId?: string): Promise<McpToolConfig[]> {
    let versionId = knownVersionId ?? this.versionOfRun.get(runId);
    if (!versionId) {
      const run = await this.runs.findById(orgId, runId);
      if (!run) throw new RunNotFoundError(runId);
      versionId = run.agentVersionId;
      this.versionOfRun.set(runId, versionId);
    }
    const key = `${orgId}/${versionId}`;
    let servers = this.serversOfVersion.get(key);
    if (!servers) {
      const version = await this.agents.findVersion(orgId, versionId);
      if (!version) throw new RunNotFoundError(runId);
      servers = version.tools.filter((tool: AgentToolConfig): tool is McpToolConfig => tool.type === MCP_TOOL);
      this.serversOfVersion.set(key, servers);
    }
    return servers;
  }

  private endpoint(server: McpToolConfig, timeoutMs: number, signal: AbortSignal | undefined): McpEndpoint {
    const headers: Record<string, string> = {};
    for (const [name, sealed] of Object.entries(server.headers ?? {})) {
      headers[name] = this.secrets.open(sealed, mcpHeaderContext(server.server_label, name));
    }
    return { url: server.server_url, headers, privateTargets: this.privateTargets, timeoutMs, ...(signal ? { signal } : {}) };
  }
}

function parseArguments(text: string): Record<string, unknown> | null {
  try {
    const parsed: unknown = JSON.parse(text === '' ? '{}' : text);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function errorOf(output: string): string {
  try {
    const parsed = JSON.parse(output) as { error?: unknown };
    return typeof parsed.error === 'string' ? parsed.error : output;
  } catch {
    return output;
  }
}

/** An error as one line for the model and the run's log: what happened, never a header. */
function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${message}${cause}`.replace(/\s+/g, ' ').slice(0, 500);
}
