import {
  FUNCTION_TOOL,
  KNOWLEDGE_SEARCH_TOOL,
  MCP_TOOL,
  splitMcpToolName,
  toolName,
  type AgentToolConfig,
  type PlannedToolCall,
  type ToolCall,
} from '@pylon/contracts';

/**
 * Who runs a call of the model, by its tool's type: the customer for a function tool (the run waits for its
 * output); Pylon for an MCP server's tool (`<server_label>.<tool>`) and a knowledge search, after approval
 * when the tool asks for it. A call of no known tool goes to Pylon too, which tells the model so.
 */
export function planCall(call: ToolCall, tools: readonly AgentToolConfig[]): PlannedToolCall {
  const named = splitMcpToolName(call.name);
  const server = named && tools.find((tool) => tool.type === MCP_TOOL && tool.server_label === named.serverLabel);
  if (server?.type === MCP_TOOL) return { ...call, runner: 'pylon', approval: server.require_approval === 'always', mcp: true };
  const tool = tools.find((candidate) => toolName(candidate) === call.name);
  if (tool?.type === FUNCTION_TOOL) return { ...call, runner: 'customer', approval: false };
  return { ...call, runner: 'pylon', approval: tool?.type === KNOWLEDGE_SEARCH_TOOL && tool.require_approval === 'always' };
}
