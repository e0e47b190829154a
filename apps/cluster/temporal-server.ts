import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time';
import { temporal } from '@temporalio/proto';
import { Client } from 'pg';
import { SEARCH_ATTRIBUTES } from '@pylon/contracts';
import { freePort } from '../embedded/dev-server';
import { SCRIPTS } from './native-postgres';

const run = promisify(execFile);
const NAMESPACE = 'default';

/** The Temporal server, its SQL schema tool, the UI server and the server's schema, built once by scripts/ensure-temporal-server.sh. */
export interface TemporalServerBinaries {
  server: string;
  sqlTool: string;
  uiServer: string;
  schemaDir: string;
}

export function temporalServerBinaries(): TemporalServerBinaries {
  const dir =
    process.env.TEMPORAL_SERVER_DIR ||
    execFileSync('bash', [join(SCRIPTS, 'ensure-temporal-server.sh')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
  return {
    server: join(dir, 'temporal-server'),
    sqlTool: join(dir, 'temporal-sql-tool'),
    uiServer: join(dir, 'temporal-ui-server'),
    schemaDir: join(dir, 'schema', 'postgresql', 'v12'),
  };
}

/**
 * Temporal's two databases on the PostgreSQL at `serverUrl`: made if missing, then brought to the server's
 * schema version by its own tool (`setup-schema -v 0.0` leaves a versioned schema alone; `update-schema`
 * applies the versions it lacks).
 */
export async function setUpTemporalSchema(binaries: TemporalServerBinaries, serverUrl: string): Promise<void> {
  const server = new URL(serverUrl);
  const connection = ['--plugin', 'postgres12', '--ep', server.hostname, '-p', server.port || '5432', '-u', decodeURIComponent(server.username)];
  if (server.password) connection.push('--pw', decodeURIComponent(server.password));
  for (const [database, schema] of [
    ['temporal', 'temporal'],
    ['temporal_visibility', 'visibility'],
  ]) {
    const tool = (...args: string[]) => run(binaries.sqlTool, [...connection, '--db', database, ...args]);
    if (!(await databaseExists(serverUrl, database))) await tool('create-database');
    await tool('setup-schema', '-v', '0.0');
    await tool('update-schema', '-d', join(binaries.schemaDir, schema, 'versioned'));
  }
}

async function databaseExists(serverUrl: string, database: string): Promise<boolean> {
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    return !!(await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [database])).rowCount;
  } finally {
    await admin.end();
  }
}

export interface TemporalServerOptions {
  binaries: TemporalServerBinaries;
  /** The PostgreSQL server holding Temporal's databases (`temporal`, `temporal_visibility`). */
  postgresUrl: string;
  /** Where the server's generated configuration and log go. */
  dir: string;
  /** Frontend gRPC port; 0 picks a free one. */
  port?: number;
  /** Serve the Temporal UI on this port too; omit for none. */
  uiPort?: number;
  /** History shards: fixed when the cluster is first set up (Temporal cannot change it later). */
  historyShards?: number;
}

export interface TemporalServer {
  address: string;
  uiUrl: string | undefined;
  /** The server process (all four services in one process: frontend, history, matching, worker). */
  readonly process: ChildProcess;
  logFile: string;
  /** Stops the server process (SIGTERM, then SIGKILL) and starts it again on the same ports and store. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A Temporal server with PostgreSQL persistence and visibility, its schema set up and upgraded by the
 * server's SQL tool, task queue fairness on, the `default` namespace and Pylon's search attributes
 * registered; optionally the Temporal UI beside it.
 */
export async function startTemporalServer(options: TemporalServerOptions): Promise<TemporalServer> {
  await setUpTemporalSchema(options.binaries, options.postgresUrl);
  const port = options.port || (await freePort());
  const configDir = join(options.dir, 'config');
  mkdirSync(configDir, { recursive: true });
  // JSON is YAML: the server reads config/<env>.yaml and the dynamic config file.
  writeFileSync(join(configDir, 'pylon.yaml'), JSON.stringify(await serverConfig(options, port, configDir), null, 2));
  writeFileSync(join(configDir, 'dynamic.yaml'), JSON.stringify(DYNAMIC_CONFIG, null, 2));
  const logFile = join(options.dir, 'temporal-server.log');
  const spawnServer = () =>
    spawnLogged(options.binaries.server, ['--root', options.dir, '--config', 'config', '--env', 'pylon', '--allow-no-auth', 'start'], logFile);

  let server = spawnServer();
  const address = `127.0.0.1:${port}`;
  await registerNamespace(address, server, logFile);

  let ui: ChildProcess | undefined;
  if (options.uiPort) ui = await startUi(options.binaries, options.dir, address, options.uiPort);

  const stopServer = async () => {
    await stopProcess(server);
  };
  return {
    address,
    uiUrl: options.uiPort ? `http://127.0.0.1:${options.uiPort}` : undefined,
    get process() {
      return server;
    },
    logFile,
    restart: async () => {
      await stopServer();
      server = spawnServer();
      await waitUntilServing(address, server, logFile);
    },
    stop: async () => {
      if (ui) await stopProcess(ui);
      await stopServer();
    },
  };
}

/**
 * Key → value for every host of this cluster. Task queue fairness is what Pylon's scheduling rests on
 * (dispatch round robin between organisations, fairness key = org id). One partition per task queue, as on
 * the dev server: with a few pollers per queue a task written to a partition no poller waits on sits there
 * until it is forwarded, up to 1-2 s under load (bench agent-run-e2e); a cluster that runs many matching
 * hosts raises it. A namespace registered at first start is served within a second.
 */
const DYNAMIC_CONFIG = Object.fromEntries(
  Object.entries({
    'matching.enableFairness': true,
    'matching.numTaskqueueReadPartitions': 1,
    'matching.numTaskqueueWritePartitions': 1,
    'system.namespaceCacheRefreshInterval': '1s',
  }).map(([key, value]) => [key, [{ value }]]),
);

async function serverConfig(options: TemporalServerOptions, port: number, configDir: string): Promise<object> {
  const postgres = new URL(options.postgresUrl);
  const store = (databaseName: string, maxConns: number) => ({
    sql: {
      pluginName: 'postgres12',
      databaseName,
      connectAddr: `${postgres.hostname}:${postgres.port || 5432}`,
      connectProtocol: 'tcp',
      user: decodeURIComponent(postgres.username),
      password: decodeURIComponent(postgres.password),
      maxConns,
      maxIdleConns: maxConns,
      maxConnLifetime: '1h',
    },
  });
  const service = async (grpcPort: number) => ({ rpc: { grpcPort, membershipPort: await freePort(), bindOnLocalHost: true } });
  return {
    log: { stdout: true, level: 'warn' },
    persistence: {
      defaultStore: 'default',
      visibilityStore: 'visibility',
      numHistoryShards: options.historyShards ?? 4,
      datastores: { default: store('temporal', 20), visibility: store('temporal_visibility', 10) },
    },
    global: { membership: { maxJoinDuration: '30s', broadcastAddress: '127.0.0.1' } },
    services: {
      frontend: { rpc: { ...(await service(port)).rpc, httpPort: await freePort() } },
      history: await service(await freePort()),
      matching: await service(await freePort()),
      worker: await service(await freePort()),
    },
    clusterMetadata: {
      enableGlobalNamespace: false,
      failoverVersionIncrement: 10,
      masterClusterName: 'active',
      currentClusterName: 'active',
      clusterInformation: { active: { enabled: true, initialFailoverVersion: 1, rpcName: 'frontend', rpcAddress: `127.0.0.1:${port}` } },
    },
    dcRedirectionPolicy: { policy: 'noop' },
    dynamicConfigClient: { filepath: join(configDir, 'dynamic.yaml'), pollInterval: '10s' },
  };
}

function spawnLogged(command: string, args: string[], logFile: string): ChildProcess {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const out = createWriteStream(logFile, { flags: 'a' });
  child.stdout?.pipe(out, { end: false });
  child.stderr?.pipe(out, { end: false });
  child.once('close', () => out.end());
  return child;
}

function stopProcess(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
  });
}

/** Waits until the frontend answers for the `default` namespace (which the server's membership and shards must be up for). */
async function waitUntilServing(address: string, server: ChildProcess, logFile: string, timeoutMs = 120_000): Promise<Connection> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the Temporal server exited with code ${server.exitCode}; its log: ${logFile}`);
    try {
      const connection = await Connection.connect({ address, connectTimeout: 2_000 });
      try {
        await connection.workflowService.getSystemInfo({});
        return connection;
      } catch (error) {
        await connection.close();
        throw error;
      }
    } catch (error) {
      lastError = error;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  throw new Error(`the Temporal server at ${address} did not serve within ${timeoutMs / 1000}s (${String(lastError)}); its log: ${logFile}`);
}

async function registerNamespace(address: string, server: ChildProcess, logFile: string): Promise<void> {
  const connection = await waitUntilServing(address, server, logFile);
  try {
    await connection.workflowService
      .registerNamespace({ namespace: NAMESPACE, workflowExecutionRetentionPeriod: msToTs('3 days') })
      .catch((error: { code?: number }) => {
        if (error.code !== 6 /* ALREADY_EXISTS */) throw error;
      });
    const keyword = temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD;
    const deadline = Date.now() + 60_000;
    for (;;) {
      try {
        const existing = await connection.operatorService.listSearchAttributes({ namespace: NAMESPACE });
        const missing = Object.values(SEARCH_ATTRIBUTES).filter((name) => !(name in existing.customAttributes));
        if (missing.length) {
          await connection.operatorService.addSearchAttributes({
            namespace: NAMESPACE,
            searchAttributes: Object.fromEntries(missing.map((name) => [name, keyword])),
          });
          continue;
        }
        // Served by the namespace registry, not only stored: a query on it succeeds.
        await connection.workflowService.countWorkflowExecutions({ namespace: NAMESPACE, query: `${SEARCH_ATTRIBUTES.orgId} = 'probe'` });
        return;
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
  } finally {
    await connection.close();
  }
}

async function startUi(binaries: TemporalServerBinaries, dir: string, address: string, port: number): Promise<ChildProcess> {
  const root = join(dir, 'ui');
  mkdirSync(join(root, 'config'), { recursive: true });
  const config = {
    temporalGrpcAddress: address,
    host: '127.0.0.1',
    port,
    enableUi: true,
    defaultNamespace: NAMESPACE,
    cors: { allowOrigins: [`http://127.0.0.1:${port}`] },
  };
  writeFileSync(join(root, 'config', 'pylon.yaml'), JSON.stringify(config, null, 2));
  const logFile = join(dir, 'temporal-ui.log');
  const ui = spawnLogged(binaries.uiServer, ['--root', root, '--config', 'config', '--env', 'pylon', 'start'], logFile);
  const deadline = Date.now() + 30_000;
  while (
    !(await fetch(`http://127.0.0.1:${port}/`).then(
      (response) => response.ok,
      () => false,
    ))
  ) {
    if (ui.exitCode !== null || Date.now() > deadline) throw new Error(`the Temporal UI did not start on port ${port}; its log: ${logFile}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return ui;
}
