/** The largest rate a key may be given (RATE_LIMIT_PER_SECOND, RATE_LIMIT_BURST, admin overrides): high enough for benchmarks. */
export const MAX_RATE_LIMIT = 1_000_000_000;

/** The largest value of an organisation's cap, in configuration and in admin overrides. */
export const MAX_ORG_LIMIT = 1_000_000;

/** An organisation's caps, by their wire names (also the columns of `org_limits`). */
export const ORG_LIMIT_NAMES = ['webhook_endpoints', 'test_events_per_minute', 'inflight_deliveries_per_endpoint'] as const;
export type OrgLimitName = (typeof ORG_LIMIT_NAMES)[number];
