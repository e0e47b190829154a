/**
 * `npm test`: starts what the suites need — a PostgreSQL with pgvector (embedded PGlite, or the server
 * at DATABASE_URL, in a fresh database) and a Temporal dev server — applies migrations, and runs every
 * compiled `*.test.js` under dist/ with Node's test runner.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Client } from 'pg';
import { runMigrations } from '@pylon/db';
import { findOrBuildTemporalCli, startTemporalDevServer } from '@pylon/temporal';

const DIST = join(__dirname, '..');

function testFiles(dir: string, filter: string | undefined): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.test.js'))
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((file) => !file.includes('node_modules') && (!filter || file.includes(filter)))
    .sort();
}

async function freshDatabase(serverUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `pylon_test_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

async function main(): Promise<number> {
  const filter = process.argv[2];
  const files = testFiles(DIST, filter);
  if (files.length === 0) throw new Error(`no test files match ${filter ?? '*'}`);

  let database: { url: string; label: string; stop: () => Promise<void> };
  if (process.env.DATABASE_URL) {
    const fresh = await freshDatabase(process.env.DATABASE_URL);
    database = { url: fresh.url, label: `PostgreSQL at ${new URL(fresh.url).host} (fresh database)`, stop: fresh.drop };
  } else {
    const { PgliteServer } = await import('@pylon/pglite-server');
    const pglite = await PgliteServer.start({});
    database = { url: pglite.url, label: 'embedded PGlite (in memory)', stop: () => pglite.stop() };
  }
  await runMigrations(database.url);
  const temporalCli = findOrBuildTemporalCli();
  const temporal = await startTemporalDevServer();
  console.log(`test infrastructure: ${database.label}; Temporal dev server at ${temporal.address}`);

  try {
    const child = spawn(process.execPath, ['--test', '--test-reporter=spec', ...files], {
      stdio: 'inherit',
      env: {
        ...process.env,
        DATABASE_URL: database.url,
        TEMPORAL_ADDRESS: temporal.address,
        TEMPORAL_CLI: temporalCli,
        ADMIN_TOKEN: `test-admin-${randomBytes(12).toString('hex')}`,
        LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
        PYLON_TEST_INFRA: '1',
      },
    });
    console.log(`running ${files.length} test files: ${files.map((file) => relative(DIST, file)).join(', ')}`);
    return await new Promise<number>((resolve) => child.on('exit', (code) => resolve(code ?? 1)));
  } finally {
    await temporal.stop();
    await database.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
