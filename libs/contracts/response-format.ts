/** A version's structured output: the final answer must be JSON matching `schema` (checked with Ajv). */
export interface JsonSchemaResponseFormat {
  type: 'json_schema';
  /** The schema's name, as OpenAI takes it (`^[a-zA-Z0-9_-]{1,64}$`). */
  name: string;
  schema: Record<string, unknown>;
  /** OpenAI's strict mode (the provider then only produces matching JSON); Pylon validates either way. */
  strict: boolean;
}

export const RESPONSE_FORMAT_NAME_PATTERN = '^[a-zA-Z0-9_-]{1,64}$';

/** The error a run fails with when its answer, repaired once, still does not match the schema. */
export function outputMismatchError(fault: string): string {
  return `output did not match the schema: ${fault}`;
}

/** How many tokens one model call took, and who counted them. */
export interface TurnUsage {
  inputTokens: number;
  outputTokens: number;
  /** `provider`: the provider's own count; `tokenizer`: counted by Pylon with a real tokenizer (o200k_base). */
  countedBy: 'provider' | 'tokenizer';
  /** Of the input tokens, those the provider read from its prompt cache (when it says). */
  cachedInputTokens?: number;
  /** Of the output tokens, those the model spent reasoning before it answered (when the provider says). */
  reasoningTokens?: number;
}
