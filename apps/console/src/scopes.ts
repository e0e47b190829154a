/** Scopes an organisation key can hold, with what each lets the console do. */
export const SCOPES = [
  { scope: 'runs:read', allows: 'see runs and their events' },
  { scope: 'runs:create', allows: 'start and cancel runs' },
  { scope: 'agents:manage', allows: 'list agents and their versions (to pick one for a run)' },
  { scope: 'kb:read', allows: 'see knowledge documents and search them' },
  { scope: 'kb:write', allows: 'upload and delete documents' },
  { scope: 'video:read', allows: 'see videos' },
  { scope: 'video:create', allows: 'generate, extend and cancel videos' },
  { scope: 'tokens:read', allows: 'see the token balance and ledger' },
  { scope: 'webhooks:manage', allows: 'manage webhook endpoints and see deliveries' },
  { scope: 'keys:manage', allows: 'manage API keys' },
] as const;

export type Scope = (typeof SCOPES)[number]['scope'] | '*';

/** Whether a key with `held` scopes may do what `needed` guards (`*` holds all). */
export function grants(held: readonly string[], needed: Scope): boolean {
  return held.includes('*') || held.includes(needed);
}
