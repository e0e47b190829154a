export interface ModelId {
  provider: string;
  model: string;
}

/** Splits `provider/model`; the model part may itself contain slashes (e.g. `openai/org/model`). */
export function parseModelId(value: string): ModelId | null {
  const match = /^([a-z][a-z0-9-]*)\/(\S+)$/.exec(value);
  return match ? { provider: match[1]!, model: match[2]! } : null;
}
