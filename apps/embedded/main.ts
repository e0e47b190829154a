import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { POSTGRES_DIR, TEMPORAL_DB_FILE, loadConfig, requireSupportedNode } from '@pylon/config';
import { runMigrations } from '@pylon/db';
import { startTemporalDevServer, type DevServer } from './dev-server';
import { resolveAdminToken } from './admin-token';
import { resolveSecretsKey } from './secrets-key';
import { ensureDemoTenant } from './demo-tenant';
import { runningMessage, stopOnSignals, waitUntilReady, webhookTargetsOnOneMachine } from './launch';
import { exitIfPortsTaken, type WantedPort } from './ports';
import { SupervisedProcess } from './supervisor';

const DIST = join(__dirname, '..', '..');

/**
 * `npm start`: the whole stack on one machine. An embedded PostgreSQL (PGlite with pgvector) and a
 * Temporal dev server unless DATABASE_URL / TEMPORAL_ADDRESS point at real ones; then migrations,
 * the worker and the API as supervised processes. Everything persists under DATA_DIR.
 */
async function main(): Promise<void> {
  process.title = 'pylon';
  requireSupportedNode();
  const config = loadConfig();
  mkdirSync(config.dataDir, { recursive: true });
  const { stops, shutdown } = stopOnSignals();

  const startsTemporal = !process.env.TEMPORAL_ADDRESS;
  const temporalPort = Number(process.env.TEMPORAL_PORT ?? 7233);
  const temporalUiPort = Number(process.env.TEMPORAL_UI_PORT ?? temporalPort + 1000);
  const wanted: WantedPort[] = [
    { port: config.port, host: config.host, what: 'the API', setting: 'PORT' },
    ...(startsTemporal
      ? [
          { port: temporalPort, host: '127.0.0.1', what: 'the Temporal dev server', setting: 'TEMPORAL_PORT' },
          { port: temporalUiPort, host: '127.0.0.1', what: 'the Temporal UI', setting: 'TEMPORAL_UI_PORT' },
        ]
      : []),
  ];
  await exitIfPortsTaken(wanted);

  try {
    let databaseUrl = config.databaseUrl;
    if (!databaseUrl) {
      const { PgliteServer } = await import('@pylon/pglite-server');
      const postgres = await PgliteServer.start({ dataDir: join(config.dataDir, POSTGRES_DIR) });
      stops.push(() => postgres.stop());
      databaseUrl = postgres.url;
      console.log(`Embedded PostgreSQL (PGlite + pgvector) at ${databaseUrl}, data in ${join(config.dataDir, POSTGRES_DIR)}`);
    }
    const applied = await runMigrations(databaseUrl);
    if (applied.length) console.log(`Applied migrations: ${applied.join(', ')}`);

    let temporalAddress = config.temporalAddress;
    let temporalUi = config.temporalUiUrl;
    if (startsTemporal) {
      const temporal: DevServer = await startTemporalDevServer({
        port: temporalPort,
        uiPort: temporalUiPort,
        dbFile: join(config.dataDir, TEMPORAL_DB_FILE),
      });
      stops.push(() => temporal.stop());
      temporalAddress = temporal.address;
      temporalUi = temporal.uiUrl;
      console.log(`Temporal dev server at ${temporalAddress}`);
    }

    const admin = resolveAdminToken(config.adminToken, config.dataDir);
    const webhookTargets = webhookTargetsOnOneMachine(config.host);
    const env = {
      DATABASE_URL: databaseUrl,
      TEMPORAL_ADDRESS: temporalAddress,
      ADMIN_TOKEN: admin.token,
      SECRETS_KEY: resolveSecretsKey(process.env.SECRETS_KEY, config.dataDir),
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
      // PGlite is one session shared by every client: keep each process's pool small.
      DB_POOL_SIZE: process.env.DB_POOL_SIZE ?? (config.databaseUrl ? '10' : '4'),
      // ...and building an organisation's HNSW index there would stop every query of every organisation
      // for minutes (≈ 2 at 50 000 chunks): on PGlite every organisation is searched exactly (≈ 2 ms per
      // 1 000 chunks, and always the true nearest; bench/README.md, Which index for a large organisation).
      ...(config.databaseUrl ? {} : { KB_EXACT_SEARCH_MAX_CHUNKS: process.env.KB_EXACT_SEARCH_MAX_CHUNKS ?? '10000000' }),
      WEBHOOK_ALLOWED_PRIVATE_TARGETS: webhookTargets,
    };
    const worker = new SupervisedProcess('worker', join(DIST, 'apps/worker/main.js'), env);
    const api = new SupervisedProcess('api', join(DIST, 'apps/api/main.js'), env);
    stops.push(
      () => worker.stop(),
      () => api.stop(),
    );
    worker.start();
    api.start();

    const apiUrl = `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${config.port}`;
    await waitUntilReady(apiUrl, 120_000);
    const demo = await ensureDemoTenant(apiUrl, admin.token, config.dataDir);

    console.log(runningMessage({ apiUrl, temporalUi, dataDir: config.dataDir, webhookTargets, admin, demo }));
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    await shutdown(1);
  }
}

void main();
