export interface LlmRequest {
  orgId: string;
  /** The model name after the provider prefix, e.g. `gpt-4o-mini` for `openai/gpt-4o-mini`. */
  model: string;
  instructions: string;
  input: string;
  temperature: number | null;
  maxOutputTokens: number | null;
  /** Aborted when the run is cancelled or times out. */
  signal?: AbortSignal;
}

export interface LlmProvider {
  /** The `provider` part of a `provider/model` id. */
  readonly name: string;
  supportsModel(model: string): boolean;
  generate(request: LlmRequest): Promise<string>;
}
