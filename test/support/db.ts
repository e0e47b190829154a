import { Client } from 'pg';
import { testInfra } from './infra';

/** Reads the database directly, to check what the API cannot show (drafts, chunk rows, events). */
export async function sql<T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> {
  const client = new Client({ connectionString: testInfra().databaseUrl });
  await client.connect();
  try {
    return (await client.query(text, params)).rows as T[];
  } finally {
    await client.end();
  }
}
