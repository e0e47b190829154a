import { mcpToolName, type McpServerTools } from '@pylon/contracts';
import type { ToolSpec } from './llm-provider';

/** A server's listed tools as the model sees them: `<server_label>.<tool>`, with the server's own description and input schema. */
export function mcpToolSpecs(server: McpServerTools | undefined): ToolSpec[] {
  if (!server) return [];
  return server.tools.map((tool) => ({
    name: mcpToolName(server.server_label, tool.name),
    description: tool.description,
    parameters: tool.parameters,
  }));
}
