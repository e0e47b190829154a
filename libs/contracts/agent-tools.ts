import type { TurnUsage } from './response-format';
import { MCP_TOOL, type McpToolConfig } from './mcp-tools';

/** Tools an agent version can enable. */
export const KNOWLEDGE_SEARCH_TOOL = 'knowledge_search';
/** A tool the customer runs: the run waits for its output (a required action). */
export const FUNCTION_TOOL = 'function';
export const DEFAULT_TOOL_MATCH_COUNT = 6;
/** At most this many tools per version. */
export const MAX_AGENT_TOOLS = 32;
export const FUNCTION_TOOL_NAME_PATTERN = '^[a-zA-Z0-9_-]{1,64}$';

/** Whether a person must approve each call of a tool Pylon runs itself before it runs. */
export const APPROVAL_POLICIES = ['always', 'never'] as const;
export type ApprovalPolicy = (typeof APPROVAL_POLICIES)[number];

export interface KnowledgeSearchToolConfig {
  type: typeof KNOWLEDGE_SEARCH_TOOL;
  match_count: number;
  require_approval: ApprovalPolicy;
  /** Only these knowledge bases of the organisation; absent: all of them. */
  knowledge_base_ids?: string[];
}

export interface FunctionToolConfig {
  type: typeof FUNCTION_TOOL;
  name: string;
  description: string;
  /** A JSON Schema for the call's arguments, checked as one when the version was created. */
  parameters: Record<string, unknown>;
}

export type AgentToolConfig = KnowledgeSearchToolConfig | FunctionToolConfig | McpToolConfig;

/** The name the model calls a tool by (an MCP server's label: its tools are `<server_label>.<tool>`). */
export function toolName(tool: AgentToolConfig): string {
  return tool.type === FUNCTION_TOOL ? tool.name : tool.type === MCP_TOOL ? tool.server_label : tool.type;
}

/** A tool call the model asked for; `arguments` is the model's JSON text. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** What happened after the input, in order: the model's tool calls and their results. */
export type TranscriptEntry = { role: 'assistant'; toolCalls: ToolCall[]; content?: string } | { role: 'tool'; toolCallId: string; content: string };

/** An earlier turn of the conversation as the model sees it: what was asked and answered, and the tools in between. */
export type HistoryEntry = { role: 'user'; content: string } | { role: 'assistant'; content: string } | TranscriptEntry;

/** One model call's result: its answer or the tools it calls, and the tokens it took (when the provider counted them). */
export type LlmTurn = ({ kind: 'answer'; text: string } | { kind: 'tool_calls'; calls: ToolCall[]; content?: string }) & { usage?: TurnUsage };

/** A knowledge match as a tool hands it to the model. */
export interface KnowledgeToolHit {
  doc_id: string;
  chunk_id: string;
  title: string;
  score: number;
  content: string;
  /** The pages the passage is on, for a document with pages (PDF); absent otherwise. */
  page_start?: number;
  page_end?: number;
}

/** How many model turns a run may take before it must answer. */
export const MAX_AGENT_TURNS = 6;
