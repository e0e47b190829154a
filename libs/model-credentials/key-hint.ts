/**
 * What answers show of a key: its first three characters and its last four (`sk-…a1b2`), fewer of a short key,
 * so that a person can tell their keys apart and nobody can use one.
 */
export function keyHint(apiKey: string): string {
  const prefix = apiKey.length >= 16 ? apiKey.slice(0, 3) : '';
  const suffix = apiKey.length >= 12 ? apiKey.slice(-4) : apiKey.length >= 8 ? apiKey.slice(-2) : '';
  return `${prefix}…${suffix}`;
}

/** What a sealed key is bound to: its organisation and provider (a sealed key moved to another row does not open). */
export function credentialContext(orgId: string, provider: string): string {
  return `model-credential:${orgId}:${provider}`;
}
