import type { ToolCall } from './agent-tools';

/** A tool type whose tools live on an MCP server (Streamable HTTP, SSE as a fallback); Pylon is the client. */
export const MCP_TOOL = 'mcp';
/** A server label: unique within a version, the prefix of its tools' names (`<server_label>.<tool>`). */
export const MCP_SERVER_LABEL_PATTERN = '^[a-zA-Z][a-zA-Z0-9_-]{0,31}$';
/** Header names a version may send to its MCP server (RFC 9110 tokens). */
export const MCP_HEADER_NAME_PATTERN = "^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$";
export const MAX_MCP_HEADERS = 16;
export const MAX_MCP_HEADER_VALUE_CHARS = 4_096;
export const MAX_MCP_ALLOWED_TOOLS = 64;
export const MAX_MCP_SERVER_URL_CHARS = 2_048;
/** How a header value is shown in every response: never the value itself. */
export const MASKED_HEADER_VALUE = '********';

/** At most this many of a server's tools are offered to the model (the first ones it lists, after allowed_tools). */
export const MAX_MCP_TOOLS_PER_SERVER = 64;
/** A tool's result is cut to this many characters before the model sees it (and the run's log records it). */
export const MCP_RESULT_MAX_CHARS = 16_000;
/** One call (or one server's listing) may take this long; the activity around it a little longer. */
export const MCP_CALL_TIMEOUT_MS = 60_000;
export const MCP_LIST_TIMEOUT_MS = 15_000;

/** An MCP server as a version stores it: `headers` values are sealed (AES-256-GCM under SECRETS_KEY), never plain. */
export interface McpToolConfig {
  type: typeof MCP_TOOL;
  server_label: string;
  server_url: string;
  /** Only these of the server's tools are offered; null: all it lists. */
  allowed_tools: string[] | null;
  require_approval: 'always' | 'never';
  /** Header name → sealed value; absent when none. */
  headers?: Record<string, string>;
}

/** A tool as listed by its server, offered to the model as `<server_label>.<name>`. */
export interface McpListedTool {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** What the run learnt from its MCP servers before its first model turn: each server's tools, or why none. */
export interface McpServerTools {
  server_label: string;
  tools: McpListedTool[];
  error?: string;
}

/** The name the model calls an MCP tool by. */
export function mcpToolName(serverLabel: string, tool: string): string {
  return `${serverLabel}.${tool}`;
}

/** `<server_label>.<tool>` split at its first dot, or null for a name of no MCP tool. */
export function splitMcpToolName(name: string): { serverLabel: string; tool: string } | null {
  const dot = name.indexOf('.');
  if (dot <= 0 || dot === name.length - 1) return null;
  return { serverLabel: name.slice(0, dot), tool: name.slice(dot + 1) };
}

/** Where a header's sealed value belongs (its server and name), authenticated with the value so it opens nowhere else. */
export function mcpHeaderContext(serverLabel: string, headerName: string): string {
  return `mcp-header:${serverLabel}:${headerName.toLowerCase()}`;
}

/** What the MCP activities take of the run (its workflow input): who, which version, whether it is a conversation's turn. */
export interface McpActivityInput {
  orgId: string;
  runId: string;
  heartbeatTimeoutSeconds: number;
  mcpVersionId?: string;
  conversation?: { id: string; seq: number };
}

/** Activities of MCP tools. Workflows import this interface as a type only. */
export interface McpToolActivities {
  /** Lists the tools of every MCP server of the run's version (each listing, or its error, an event of the run). */
  listMcpTools(input: McpActivityInput): Promise<McpServerTools[]>;
  /** Calls one MCP tool; its result (or its error) as text for the model, cut to MCP_RESULT_MAX_CHARS. */
  callMcpTool(input: McpActivityInput & { call: ToolCall }): Promise<string>;
}
