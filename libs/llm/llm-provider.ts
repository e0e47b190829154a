import type { HistoryEntry, JsonSchemaResponseFormat, LlmTurn, OutputRepair, TranscriptEntry } from '@pylon/contracts';

/** A tool the model may call, described as a JSON-schema function. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export interface LlmRequest {
  orgId: string;
  /** The model name after the provider prefix, e.g. `gpt-4o-mini` for `openai/gpt-4o-mini`. */
  model: string;
  instructions: string;
  input: string;
  temperature: number | null;
  maxOutputTokens: number | null;
  tools: ToolSpec[];
  /** The conversation's earlier turns, oldest first, before this input (empty outside a conversation). */
  history: HistoryEntry[];
  /** The model's earlier tool calls in this run and their results. */
  transcript: TranscriptEntry[];
  /** The version's structured output: the answer must be JSON matching it. */
  responseFormat: JsonSchemaResponseFormat | null;
  /** The repair turn: the answer that did not match the schema, and why; the model is asked once to answer again. */
  repair?: OutputRepair;
  /** The organisation's own key for the provider; absent: the operator's (see ModelCredentialsService). */
  apiKey?: string;
  /** Aborted when the run is cancelled or times out. */
  signal?: AbortSignal;
  /** Called with each piece of the answer's text as the model produces it, in order. */
  onDelta?: (text: string) => void;
}

export interface LlmProvider {
  /** The `provider` part of a `provider/model` id. */
  readonly name: string;
  /** Whether this server can run its models on its own key (the operator's API key is set, for a hosted provider). */
  readonly configured: boolean;
  /** Whether it authenticates with an API key, so that an organisation may bring its own. */
  readonly keyed: boolean;
  /** The models it offers, without the provider prefix; null when it takes any model name (a hosted provider). */
  readonly models: readonly string[] | null;
  /** Answers inside the calling process in milliseconds, with no network (the offline models). */
  readonly answersInProcess: boolean;
  supportsModel(model: string): boolean;
  /** How many tokens of context the model takes: a conversation's history is cut to fit. */
  contextTokens(model: string): number;
  /**
   * Why this provider cannot produce answers matching `schema` (a 400 at version creation), or null.
   * Absent when it takes any JSON Schema.
   */
  responseSchemaFault?(model: string, schema: Record<string, unknown>): string | null;
  /** One minimal call on `apiKey` (listing models): resolves when the key works, throws the provider's refusal otherwise. */
  checkKey?(apiKey: string, signal?: AbortSignal): Promise<void>;
  /**
   * The request's input tokens as the provider counts them (its token-counting endpoint), generating nothing.
   * Absent when it has no such endpoint.
   */
  countInputTokens?(request: LlmRequest): Promise<number>;
  /** One turn: the answer, or the tool calls the model wants first, with its own token counts when it has them. */
  generate(request: LlmRequest): Promise<LlmTurn>;
}
