/** Who is calling: an organisation's API key. */
export interface Principal {
  orgId: string;
  keyId: string;
  scopes: readonly string[];
  /** The key's own rate limit; null: the configured default. */
  rateLimit: { perSecond: number | null; burst: number | null };
  /** Presented with the secret the key had before its last roll, still accepted during the grace period. */
  withPreviousSecret: boolean;
}
