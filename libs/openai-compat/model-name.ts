const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What an OpenAI `model` names here: an agent (`agent:<agent_id>`, its latest version) or an agent version by its id. */
export type ModelName = { kind: 'agent'; agentId: string } | { kind: 'version'; versionId: string };

/** The model a name names, ids in lower case; null for a name that is neither form. */
export function parseModelName(name: string): ModelName | null {
  const agentId = /^agent:(.+)$/.exec(name)?.[1];
  if (agentId !== undefined) return UUID.test(agentId) ? { kind: 'agent', agentId: agentId.toLowerCase() } : null;
  return UUID.test(name) ? { kind: 'version', versionId: name.toLowerCase() } : null;
}

/** A run's id (what a response's id is), in lower case; null for anything else. */
export function runIdOf(responseId: string): string | null {
  return UUID.test(responseId) ? responseId.toLowerCase() : null;
}
