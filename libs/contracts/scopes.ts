/** Every scope an API key can carry. `*` grants all of them. */
export const SCOPES = [
  '*',
  'runs:create',
  'runs:read',
  'kb:read',
  'kb:write',
  'video:create',
  'video:read',
  'webhooks:manage',
  'agents:manage',
  'tokens:read',
  /** The organisation's own API keys: create (with at most the creator's scopes), list, roll, revoke. */
  'keys:manage',
] as const;

export type Scope = (typeof SCOPES)[number];

export function grantsScope(granted: readonly string[], required: Scope): boolean {
  return granted.includes('*') || granted.includes(required);
}
