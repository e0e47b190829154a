import type { Connection } from '@temporalio/client';
import type { NativeConnection } from '@temporalio/worker';
import { temporal } from '@temporalio/proto';
import { SEARCH_ATTRIBUTES } from '@pylon/contracts';

const ALREADY_EXISTS = 6;

/** Registers Pylon's custom search attributes on the namespace; already registered is fine. */
export async function registerSearchAttributes(connection: Connection | NativeConnection, namespace: string): Promise<void> {
  const keyword = temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD;
  const wanted = Object.values(SEARCH_ATTRIBUTES);
  const existing = await connection.operatorService.listSearchAttributes({ namespace });
  const missing = wanted.filter((name) => !(name in (existing.customAttributes ?? {})));
  if (missing.length === 0) return;
  try {
    await connection.operatorService.addSearchAttributes({
      namespace,
      searchAttributes: Object.fromEntries(missing.map((name) => [name, keyword])),
    });
  } catch (error) {
    if ((error as { code?: number }).code !== ALREADY_EXISTS) throw error;
  }
}
