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
] as const;

export type Scope = (typeof SCOPES)[number];

export function grantsScope(granted: readonly string[], required: Scope): boolean {
  return granted.includes('*') || granted.includes(required);
}
