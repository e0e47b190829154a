import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { WORK_KINDS } from '@pylon/contracts';
import { loadConfig, requireSupportedNode } from '@pylon/config';
import { runMigrations } from '@pylon/db';
import { resolveAdminToken } from '../embedded/admin-token';
import { resolveSecretsKey } from '../embedded/secrets-key';
import { ensureDemoTenant } from '../embedded/demo-tenant';
import { runningMessage, stopOnSignals, waitUntilReady, webhookTargetsOnOneMachine } from '../embedded/launch';
import { exitIfPortsTaken, type WantedPort } from '../embedded/ports';
import { SupervisedProcess } from '../embedded/supervisor';
import { NativePostgres, systemPostgresBinaries } from './native-postgres';
import { startTemporalServer, temporalServerBinaries } from './temporal-server';

const DIST = join(__dirname, '..', '..');

const USAGE = `npm run start:cluster -- [--apis N] [--workers M] [--worker QUEUES]...
  --apis N          API replicas behind PORT (default API_REPLICAS or 2)
  --workers M       workers polling every task queue (default WORKER_REPLICAS or 2)
  --worker QUEUES   one more worker polling only these queues, e.g. --worker video or --worker agent-runs,knowledge
                    (queues: ${WORK_KINDS.join(', ')}); repeat for more`;

function count(value: string | undefined, name: string, fallback: number, minimum: number): number {
  const parsed = Number(value ?? fallback);
  if (!Number.isInteger(parsed) || parsed < minimum) throw new Error(`${name} must be a whole number of at least ${minimum}, not ${value}\n${USAGE}`);
  return parsed;
}

/**
 * `npm run start:cluster`: the production-shaped topology on one machine. A Temporal server on PostgreSQL
 * (the system's PostgreSQL, for Temporal's store, or TEMPORAL_POSTGRES_URL) with the Temporal UI; a native
 * PostgreSQL with pgvector for Pylon's data (the `pgserver` wheel, or DATABASE_URL); N API replicas behind
 * one port and M workers, each supervised. Same ports and first-start output as `npm start`; everything
 * persists under DATA_DIR/cluster.
 */
async function main(): Promise<void> {
  process.title = 'pylon-cluster';
  requireSupportedNode();
  const { values: flags } = parseArgs({
    options: { apis: { type: 'string' }, workers: { type: 'string' }, worker: { type: 'string', multiple: true } },
  });
  const apis = count(flags.apis ?? process.env.API_REPLICAS, '--apis', 2, 1);
  const queueWorkers = (flags.worker ?? []).map((queues) => {
    const unknown = queues.split(',').filter((queue) => !(WORK_KINDS as readonly string[]).includes(queue));
    if (unknown.length) throw new Error(`--worker ${queues}: no task queue ${unknown.join(', ')}\n${USAGE}`);
    return queues;
  });
  const allQueueWorkers = count(flags.workers ?? process.env.WORKER_REPLICAS, '--workers', 2, queueWorkers.length ? 0 : 1);

  const config = loadConfig();
  const dataDir = join(config.dataDir, 'cluster');
  mkdirSync(dataDir, { recursive: true });
  const { stops, shutdown } = stopOnSignals();

  const temporalPort = Number(process.env.TEMPORAL_PORT ?? 7233);
  const temporalUiPort = Number(process.env.TEMPORAL_UI_PORT ?? temporalPort + 1000);
  const pylonPostgresPort = Number(process.env.PYLON_POSTGRES_PORT ?? 5433);
  const temporalPostgresPort = Number(process.env.TEMPORAL_POSTGRES_PORT ?? 5434);
  const wanted: WantedPort[] = [
    { port: config.port, host: config.host, what: 'the API', setting: 'PORT' },
    { port: temporalPort, host: '127.0.0.1', what: 'the Temporal server', setting: 'TEMPORAL_PORT' },
    { port: temporalUiPort, host: '127.0.0.1', what: 'the Temporal UI', setting: 'TEMPORAL_UI_PORT' },
    ...(config.databaseUrl ? [] : [{ port: pylonPostgresPort, host: '127.0.0.1', what: "Pylon's PostgreSQL", setting: 'PYLON_POSTGRES_PORT' }]),
    ...(process.env.TEMPORAL_POSTGRES_URL
      ? []
      : [{ port: temporalPostgresPort, host: '127.0.0.1', what: "Temporal's PostgreSQL", setting: 'TEMPORAL_POSTGRES_PORT' }]),
  ];
  await exitIfPortsTaken(wanted);

  try {
    let databaseUrl = config.databaseUrl;
    if (!databaseUrl) {
      const postgres = new NativePostgres(join(dataDir, 'pylon-postgres'), pylonPostgresPort);
      databaseUrl = await postgres.start();
      stops.push(() => postgres.stop());
      console.log(`PostgreSQL with pgvector (pgserver) for Pylon's data at ${databaseUrl}, data in ${postgres.dataDir}`);
    }
    const applied = await runMigrations(databaseUrl);
    if (applied.length) console.log(`Applied migrations: ${applied.join(', ')}`);

    let temporalPostgresUrl = process.env.TEMPORAL_POSTGRES_URL;
    if (!temporalPostgresUrl) {
      const postgres = new NativePostgres(join(dataDir, 'temporal-postgres'), temporalPostgresPort, systemPostgresBinaries());
      temporalPostgresUrl = await postgres.start();
      stops.push(() => postgres.stop());
      console.log(`PostgreSQL for Temporal's store at ${temporalPostgresUrl}, data in ${postgres.dataDir}`);
    }
    const temporal = await startTemporalServer({
      binaries: temporalServerBinaries(),
      postgresUrl: temporalPostgresUrl,
      dir: join(dataDir, 'temporal'),
      port: temporalPort,
      uiPort: temporalUiPort,
    });
    stops.push(() => temporal.stop());
    console.log(`Temporal server on PostgreSQL at ${temporal.address} (log: ${temporal.logFile})`);

    // One admin token for both starts (the CLI reads it from DATA_DIR); the demo tenant is per database.
    const admin = resolveAdminToken(config.adminToken, config.dataDir);
    const webhookTargets = webhookTargetsOnOneMachine(config.host);
    const env = {
      DATABASE_URL: databaseUrl,
      TEMPORAL_ADDRESS: temporal.address,
      ADMIN_TOKEN: admin.token,
      SECRETS_KEY: resolveSecretsKey(process.env.SECRETS_KEY, config.dataDir),
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
      DB_POOL_SIZE: process.env.DB_POOL_SIZE ?? '10',
      WEBHOOK_ALLOWED_PRIVATE_TARGETS: webhookTargets,
    };
    const workers = [
      ...Array.from({ length: allQueueWorkers }, (_, index) => new SupervisedProcess(`worker ${index + 1}`, join(DIST, 'apps/worker/main.js'), env)),
      ...queueWorkers.map(
        (queues, index) =>
          new SupervisedProcess(`worker ${allQueueWorkers + index + 1} (${queues})`, join(DIST, 'apps/worker/main.js'), {
            ...env,
            WORKER_QUEUES: queues,
          }),
      ),
    ];
    const api = new SupervisedProcess('api', join(DIST, 'apps/cluster/api-replicas.js'), { ...env, API_REPLICAS: String(apis) });
    stops.push(...workers.map((worker) => () => worker.stop()), () => api.stop());
    for (const worker of workers) worker.start();
    api.start();

    const apiUrl = `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${config.port}`;
    await waitUntilReady(apiUrl, 120_000);
    const demo = await ensureDemoTenant(apiUrl, admin.token, dataDir);
    const topology = [
      `Topology      ${apis} API replica${apis === 1 ? '' : 's'} on port ${config.port} (Node cluster), ${workers.length} worker${workers.length === 1 ? '' : 's'}` +
        (queueWorkers.length
          ? ` (${allQueueWorkers} on every queue; ${queueWorkers.map((queues) => `one on ${queues}`).join('; ')})`
          : ' on every queue'),
      `Temporal      on PostgreSQL at ${temporal.address}, fairness on`,
      `PostgreSQL    ${databaseUrl.replace(/\/\/[^@]*@/, '//')} (Pylon) and ${temporalPostgresUrl.replace(/\/\/[^@]*@/, '//')} (Temporal)`,
    ];
    console.log(runningMessage({ apiUrl, temporalUi: temporal.uiUrl, dataDir, webhookTargets, admin, demo, topology }));
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    await shutdown(1);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
