import { FUNCTION_TOOL, KNOWLEDGE_SEARCH_TOOL, MCP_TOOL, type AgentToolConfig, type McpServerTools } from '@pylon/contracts';
import type { ToolSpec } from './llm-provider';
import { mcpToolSpecs } from './mcp-tool-specs';

/** The function-tool descriptions offered to the model for a version's enabled tools (an MCP server's: the tools it listed for the run). */
export function toolSpecs(tools: readonly AgentToolConfig[], mcpTools: readonly McpServerTools[] = []): ToolSpec[] {
  return tools.flatMap((tool): ToolSpec | ToolSpec[] => {
    switch (tool.type) {
      case KNOWLEDGE_SEARCH_TOOL:
        return {
          name: KNOWLEDGE_SEARCH_TOOL,
          description:
            "Search the organisation's knowledge base. Returns the best-matching passages with their doc_id; cite the doc_id of what you use.",
          parameters: {
            type: 'object',
            properties: { query: { type: 'string', description: 'What to look for, in natural language.' } },
            required: ['query'],
            additionalProperties: false,
          },
        };
      case FUNCTION_TOOL:
        return { name: tool.name, description: tool.description, parameters: tool.parameters };
      case MCP_TOOL:
        return mcpToolSpecs(mcpTools.find((server) => server.server_label === tool.server_label));
    }
  });
}
