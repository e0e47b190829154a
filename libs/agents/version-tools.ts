import Ajv from 'ajv';
import {
  PylonError,
  DEFAULT_TOOL_MATCH_COUNT,
  FUNCTION_TOOL,
  FUNCTION_TOOL_NAME_PATTERN,
  KNOWLEDGE_SEARCH_TOOL,
  MAX_AGENT_TOOLS,
  MCP_TOOL,
  toolName,
  type AgentToolConfig,
  type ApprovalPolicy,
} from '@pylon/contracts';
import type { PrivateTargets } from '@pylon/webhooks';
import { MCP_TOOL_FIELDS, maskedHeaders, mcpTool, type McpToolRequest } from './mcp-tool';

/** A tool as a version asks for it: the fields of each type (the API's DTO checks their shapes). */
export interface AgentToolRequest extends McpToolRequest {
  type: typeof KNOWLEDGE_SEARCH_TOOL | typeof FUNCTION_TOOL | typeof MCP_TOOL;
  match_count?: number | null;
  require_approval?: ApprovalPolicy;
  knowledge_base_ids?: string[] | null;
  name?: string;
  description?: string;
  parameters?: Record<string, unknown>;
}

const FIELDS_OF: Record<AgentToolRequest['type'], ReadonlySet<string>> = {
  [KNOWLEDGE_SEARCH_TOOL]: new Set(['type', 'match_count', 'require_approval', 'knowledge_base_ids']),
  [FUNCTION_TOOL]: new Set(['type', 'name', 'description', 'parameters']),
  [MCP_TOOL]: new Set(MCP_TOOL_FIELDS),
};
const NAME = new RegExp(FUNCTION_TOOL_NAME_PATTERN);

/** Compiles schemas only to prove they are schemas; strict, so a misspelt keyword is named rather than ignored. */
const schemaCompiler = new Ajv({ strict: true, allErrors: false, validateSchema: true });

/**
 * A version's tools as stored, each checked by the rules of its type: the fields it takes, a function
 * name that is unique and matches the pattern, parameters that are a JSON Schema of an object, an MCP
 * server_url the private-target policy allows. Throws 400 naming the first fault (`tools.<i>.<field>: …`).
 */
export function versionTools(requested: readonly AgentToolRequest[], privateTargets: PrivateTargets): AgentToolConfig[] {
  if (requested.length > MAX_AGENT_TOOLS) throw PylonError.invalidRequest(`tools: at most ${MAX_AGENT_TOOLS} tools`);
  const names = new Set<string>();
  return requested.map((tool, index) => {
    const at = `tools.${index}`;
    for (const field of Object.keys(tool)) {
      if ((tool as unknown as Record<string, unknown>)[field] === undefined) continue;
      if (!FIELDS_OF[tool.type].has(field)) throw PylonError.invalidRequest(`${at}.${field}: a ${tool.type} tool takes no ${field}`);
    }
    const config =
      tool.type === FUNCTION_TOOL ? functionTool(tool, at) : tool.type === MCP_TOOL ? mcpTool(tool, at, privateTargets) : knowledgeSearchTool(tool);
    const name = toolName(config);
    if (names.has(name)) throw PylonError.invalidRequest(`${at}: a tool named ${name} is already in this version`);
    names.add(name);
    return config;
  });
}

/** A knowledge_search tool; `knowledge_base_ids` (each named once) only when it scopes the search, so that an unscoped tool reads as before. */
function knowledgeSearchTool(tool: AgentToolRequest): AgentToolConfig {
  return {
    type: KNOWLEDGE_SEARCH_TOOL,
    match_count: tool.match_count ?? DEFAULT_TOOL_MATCH_COUNT,
    require_approval: tool.require_approval ?? 'never',
    ...(tool.knowledge_base_ids ? { knowledge_base_ids: [...new Set(tool.knowledge_base_ids)] } : {}),
  };
}

/** The knowledge bases the version's knowledge_search tools name, with where each is named (`tools.<i>.knowledge_base_ids`). */
export function namedKnowledgeBases(tools: readonly AgentToolConfig[]): Array<{ field: string; ids: string[] }> {
  return tools.flatMap((tool, index) =>
    tool.type === KNOWLEDGE_SEARCH_TOOL && tool.knowledge_base_ids
      ? [{ field: `tools.${index}.knowledge_base_ids`, ids: tool.knowledge_base_ids }]
      : [],
  );
}

function functionTool(tool: AgentToolRequest, at: string): AgentToolConfig {
  if (tool.name === undefined) throw PylonError.invalidRequest(`${at}.name: a function tool needs a name`);
  if (!NAME.test(tool.name)) throw PylonError.invalidRequest(`${at}.name: must match ${FUNCTION_TOOL_NAME_PATTERN}`);
  if (tool.parameters === undefined) throw PylonError.invalidRequest(`${at}.parameters: a function tool needs a JSON Schema for its arguments`);
  const schemaFault = faultOfSchema(tool.parameters);
  if (schemaFault) throw PylonError.invalidRequest(`${at}.parameters: ${schemaFault}`);
  return { type: FUNCTION_TOOL, name: tool.name, description: tool.description ?? '', parameters: tool.parameters };
}

/** Why `schema` is not a JSON Schema of the arguments object, or null when it is one. */
function faultOfSchema(schema: Record<string, unknown>): string | null {
  if (schema.type !== 'object') return 'must be a JSON Schema whose type is "object" (the arguments are an object)';
  try {
    schemaCompiler.compile(schema);
    return null;
  } catch (error) {
    return `is not a valid JSON Schema: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** A version's tools as read back: versions stored before approvals existed never need one; MCP headers masked. */
export function withDefaults(tools: readonly AgentToolConfig[]): AgentToolConfig[] {
  return tools.map((tool) =>
    tool.type === KNOWLEDGE_SEARCH_TOOL
      ? { ...tool, require_approval: tool.require_approval ?? 'never' }
      : tool.type === MCP_TOOL
        ? maskedHeaders(tool)
        : tool,
  );
}
