import { MAX_MCP_TOOLS_PER_SERVER, MCP_RESULT_MAX_CHARS, type McpListedTool } from '@pylon/contracts';

const MAX_DESCRIPTION_CHARS = 1_024;
/** A listed tool whose input schema is larger than this is offered with an open object schema instead. */
const MAX_SCHEMA_CHARS = 16_000;

interface ServerTool {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
}

/**
 * A server's tools as the model is offered them: only those `allowed` names (all when null), at most
 * MAX_MCP_TOOLS_PER_SERVER, each description cut, each input schema an object schema of bounded size.
 */
export function listedTools(tools: readonly ServerTool[], allowed: readonly string[] | null): McpListedTool[] {
  return tools
    .filter((tool) => /^[a-zA-Z0-9_.-]{1,128}$/.test(tool.name) && (allowed === null || allowed.includes(tool.name)))
    .slice(0, MAX_MCP_TOOLS_PER_SERVER)
    .map((tool) => {
      const schema = JSON.stringify(tool.inputSchema ?? {}).length <= MAX_SCHEMA_CHARS ? tool.inputSchema : { type: 'object' };
      return {
        name: tool.name,
        description: (tool.description ?? '').slice(0, MAX_DESCRIPTION_CHARS),
        parameters: { ...schema, type: 'object' },
      };
    });
}

interface ContentPart {
  type: string;
  text?: string;
  mimeType?: string;
  uri?: string;
  resource?: { uri?: string; text?: string; mimeType?: string };
}

/** A call's result as text for the model: its text parts in order, other parts named; an error result as {"error": …}. */
export function callResultText(answer: object): string {
  const result = answer as { content?: unknown; structuredContent?: unknown; isError?: unknown; toolResult?: unknown };
  if (result.content === undefined && 'toolResult' in result) return JSON.stringify(result.toolResult);
  const parts = Array.isArray(result.content) ? (result.content as ContentPart[]) : [];
  const texts = parts.map((part) => {
    if (part.type === 'text') return part.text ?? '';
    if (part.type === 'resource') return part.resource?.text ?? `[resource ${part.resource?.uri ?? ''}]`;
    if (part.type === 'resource_link') return `[resource ${part.uri ?? ''}]`;
    return `[${part.type}${part.mimeType ? ` ${part.mimeType}` : ''}]`;
  });
  let text = texts.join('\n');
  if (text === '' && result.structuredContent !== undefined) text = JSON.stringify(result.structuredContent);
  return result.isError === true ? JSON.stringify({ error: text || 'the tool reported an error' }) : text;
}

/** The text cut to MCP_RESULT_MAX_CHARS, saying so when it was. */
export function cutToSize(text: string, max = MCP_RESULT_MAX_CHARS): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\n[cut: the tool returned ${text.length} characters; the first ${max} are shown]`;
}
