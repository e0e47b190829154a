/** The largest rate a key may be given (RATE_LIMIT_PER_SECOND, RATE_LIMIT_BURST, admin overrides): high enough for benchmarks. */
export const MAX_RATE_LIMIT = 1_000_000_000;

/** The largest value of an organisation's cap, in configuration and in admin overrides. */
export const MAX_ORG_LIMIT = 1_000_000;

/** The range of an organisation's dispatch weight: Temporal (and the `real` column) keep weights as 32-bit floats. */
export const MIN_DISPATCH_WEIGHT = 0.001;
export const MAX_DISPATCH_WEIGHT = 1_000;
