import { MCP_TOOL, splitMcpToolName, type AgentToolConfig, type PlannedToolCall, type ToolCall } from '@pylon/contracts';

/** A call of an MCP server's tool (`<server_label>.<tool>`): Pylon runs it, after approval when the server's require_approval is `always`. */
export function plannedMcpCall(call: ToolCall, tools: readonly AgentToolConfig[]): PlannedToolCall | null {
  const named = splitMcpToolName(call.name);
  const server = named && tools.find((tool) => tool.type === MCP_TOOL && tool.server_label === named.serverLabel);
  if (!server || server.type !== MCP_TOOL) return null;
  return { ...call, runner: 'pylon', approval: server.require_approval === 'always', mcp: true };
}
