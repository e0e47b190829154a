import { FUNCTION_TOOL, KNOWLEDGE_SEARCH_TOOL, type AgentToolConfig } from '@pylon/contracts';
import type { ToolSpec } from './llm-provider';

/** The function-tool descriptions offered to the model for a version's enabled tools. */
export function toolSpecs(tools: readonly AgentToolConfig[]): ToolSpec[] {
  return tools.map((tool) => {
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
    }
  });
}
