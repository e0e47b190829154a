import { loadConfig } from '@pylon/config';
import { runMigrations } from './data-source';

/** `npm run migrate`: applies pending migrations to DATABASE_URL. */
async function main(): Promise<void> {
  const config = loadConfig();
  const applied = await runMigrations(config.requireDatabaseUrl());
  console.log(applied.length ? `Applied migrations: ${applied.join(', ')}` : 'Database schema is up to date.');
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
