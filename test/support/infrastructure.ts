import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { Client } from 'pg';
import { runMigrations } from '@pylon/db';
import { NativePostgres, systemPostgresBinaries } from '../../apps/cluster/native-postgres';
import { startTemporalServer, temporalServerBinaries } from '../../apps/cluster/temporal-server';
import { findOrBuildTemporalCli, freePort, startTemporalDevServer } from '../../apps/embedded/dev-server';
import { startPgliteProcess } from './pglite-process';

export interface Infrastructure {
  databaseUrl: string;
  databaseLabel: string;
  temporalAddress: string;
  /** Which Temporal: the dev server, or on the cluster topology (PYLON_TEST_TOPOLOGY=cluster) a Temporal server on PostgreSQL. */
  temporalLabel: string;
  temporalCli: string;
  /** The Temporal server's and the database's own processes, where they have one (not an in-process PGlite nor a server found at DATABASE_URL). */
  processIds: { temporal?: number; database?: number };
  /** Environment for the processes that use this infrastructure (tests, benchmarks, the app). */
  env: Record<string, string>;
  stop(): Promise<void>;
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

/**
 * A PostgreSQL with pgvector — the embedded PGlite, or a fresh database on the server at DATABASE_URL —
 * migrated, and a Temporal dev server: what `npm test` and `npm run bench` run against.
 */
/** A tool's path: from the environment when CI provisioned it already, else from its (caching) script. */
function provisioned(variable: string, script: string): string {
  return (
    process.env[variable] ||
    execFileSync('bash', [join(__dirname, '..', '..', '..', 'scripts', script)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim()
  );
}

export async function startInfrastructure(options: { pgliteInOwnProcess?: boolean } = {}): Promise<Infrastructure> {
  let database: { url: string; label: string; pid?: number; stop: () => Promise<void> };
  if (process.env.DATABASE_URL) {
    const fresh = await freshDatabase(process.env.DATABASE_URL);
    database = { url: fresh.url, label: `PostgreSQL at ${new URL(fresh.url).host} (fresh database)`, stop: fresh.drop };
  } else if (options.pgliteInOwnProcess) {
    const pglite = await startPgliteProcess();
    database = { url: pglite.url, label: 'embedded PGlite (in memory, a process of its own)', pid: pglite.pid, stop: pglite.stop };
  } else {
    const { PgliteServer } = await import('@pylon/pglite-server');
    const pglite = await PgliteServer.start({});
    database = { url: pglite.url, label: 'embedded PGlite (in memory)', stop: () => pglite.stop() };
  }
  await runMigrations(database.url);
  const temporalCli = findOrBuildTemporalCli();
  // Temporal's Java test server (time skipping), resolved from Maven Central once and cached.
  const temporalTestServer = provisioned('TEMPORAL_TEST_SERVER', 'ensure-temporal-test-server.sh');
  // Schemathesis (PyPI), the API fuzzer, in a cached virtualenv.
  const schemathesis = provisioned('SCHEMATHESIS', 'ensure-schemathesis.sh');
  const temporal = process.env.PYLON_TEST_TOPOLOGY === 'cluster' ? await startClusteredTemporal() : await startTemporalDevServer();
  return {
    databaseUrl: database.url,
    databaseLabel: database.label,
    temporalAddress: temporal.address,
    temporalLabel: 'label' in temporal ? temporal.label : `Temporal dev server at ${temporal.address}`,
    temporalCli,
    processIds: { temporal: temporal.process.pid, database: database.pid },
    env: {
      DATABASE_URL: database.url,
      TEMPORAL_ADDRESS: temporal.address,
      TEMPORAL_CLI: temporalCli,
      TEMPORAL_TEST_SERVER: temporalTestServer,
      SCHEMATHESIS: schemathesis,
      ADMIN_TOKEN: `test-admin-${randomBytes(12).toString('hex')}`,
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
      PYLON_TEST_INFRA: '1',
      PYLON_TEST_TOPOLOGY: process.env.PYLON_TEST_TOPOLOGY === 'cluster' ? 'cluster' : 'single',
    },
    stop: async () => {
      await temporal.stop();
      await database.stop();
    },
  };
}

/** A Temporal server on PostgreSQL (the system's, in a data directory of its own, or the one at TEMPORAL_POSTGRES_URL). */
async function startClusteredTemporal() {
  const dir = mkdtempSync(join(tmpdir(), 'pylon-test-temporal-'));
  const postgres = process.env.TEMPORAL_POSTGRES_URL
    ? undefined
    : new NativePostgres(join(dir, 'postgres'), await freePort(), systemPostgresBinaries());
  const postgresUrl = process.env.TEMPORAL_POSTGRES_URL || (await postgres!.start());
  const server = await startTemporalServer({ binaries: temporalServerBinaries(), postgresUrl, dir });
  return {
    address: server.address,
    label: `Temporal server on PostgreSQL at ${server.address} (log: ${server.logFile})`,
    process: server.process,
    stop: async () => {
      await server.stop();
      await postgres?.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
