import { SetMetadata } from '@nestjs/common';
import type { Scope } from '@pylon/contracts';

export type AccessRule = { kind: 'public' } | { kind: 'admin' } | { kind: 'key' } | { kind: 'scope'; scope: Scope };

export const ACCESS_RULE = 'pylon:access-rule';

/** No credentials needed (health, docs). */
export const Public = () => SetMetadata(ACCESS_RULE, { kind: 'public' } satisfies AccessRule);

/** The operator's admin token from configuration. */
export const AdminOnly = () => SetMetadata(ACCESS_RULE, { kind: 'admin' } satisfies AccessRule);

/** Any valid organisation API key, whatever its scopes (a key may always read itself). */
export const AnyApiKey = () => SetMetadata(ACCESS_RULE, { kind: 'key' } satisfies AccessRule);

/** An organisation API key carrying this scope (or `*`). */
export const RequireScope = (scope: Scope) => SetMetadata(ACCESS_RULE, { kind: 'scope', scope } satisfies AccessRule);
