/** Tools an agent version can enable. */
export const KNOWLEDGE_SEARCH_TOOL = 'knowledge_search';
export const DEFAULT_TOOL_MATCH_COUNT = 6;

export interface KnowledgeSearchToolConfig {
  type: typeof KNOWLEDGE_SEARCH_TOOL;
  match_count: number;
}

export type AgentToolConfig = KnowledgeSearchToolConfig;

/** A tool call the model asked for; `arguments` is the model's JSON text. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** What happened after the input, in order: the model's tool calls and their results. */
export type TranscriptEntry = { role: 'assistant'; toolCalls: ToolCall[]; content?: string } | { role: 'tool'; toolCallId: string; content: string };

export type LlmTurn = { kind: 'answer'; text: string } | { kind: 'tool_calls'; calls: ToolCall[]; content?: string };

/** A knowledge match as a tool hands it to the model. */
export interface KnowledgeToolHit {
  doc_id: string;
  chunk_id: string;
  title: string;
  score: number;
  content: string;
}

/** How many model turns a run may take before it must answer. */
export const MAX_AGENT_TURNS = 6;
