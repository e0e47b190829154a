import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { SEARCH_ATTRIBUTES } from '@pylon/contracts';

/** The Temporal CLI is built from the Go module proxy (later tags carry a replace directive go install refuses). */
export const TEMPORAL_CLI_MODULE = 'github.com/temporalio/cli/cmd/temporal@v1.5.1';
export const TEMPORAL_CLI_CACHE = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'pylon', 'bin', 'temporal');

function onPath(command: string): string | undefined {
  const found = spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' });
  return found.status === 0 ? found.stdout.trim() || undefined : undefined;
}

/** TEMPORAL_CLI, then the cache, then PATH; otherwise builds it once with `go install` into the cache. */
export function findOrBuildTemporalCli(log: (line: string) => void = console.log): string {
  const configured = process.env.TEMPORAL_CLI;
  if (configured) {
    if (!existsSync(configured)) throw new Error(`TEMPORAL_CLI points at ${configured}, which does not exist`);
    return configured;
  }
  if (existsSync(TEMPORAL_CLI_CACHE)) return TEMPORAL_CLI_CACHE;
  const installed = onPath('temporal');
  if (installed) return installed;
  if (!onPath('go')) {
    throw new Error('The Temporal CLI was not found and Go is not installed to build it: install Go, or set TEMPORAL_CLI');
  }
  log(`Building the Temporal CLI (${TEMPORAL_CLI_MODULE}) into ${dirname(TEMPORAL_CLI_CACHE)}; this happens once and takes a few minutes…`);
  mkdirSync(dirname(TEMPORAL_CLI_CACHE), { recursive: true });
  const build = spawnSync('go', ['install', TEMPORAL_CLI_MODULE], {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, GOBIN: dirname(TEMPORAL_CLI_CACHE), GOFLAGS: '-mod=mod' },
  });
  if (build.status !== 0 || !existsSync(TEMPORAL_CLI_CACHE)) throw new Error('Building the Temporal CLI failed (see above)');
  return TEMPORAL_CLI_CACHE;
}

/**
 * A port free to listen on, drawn below Linux's ephemeral range (32768–60999): a port the kernel hands out
 * (listen on 0) can be taken by any outgoing connection before its user binds it.
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (await canListen(port)) return port;
  }
  throw new Error('no free port found between 20000 and 32000');
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

async function waitForPort(port: number, timeoutMs: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the Temporal dev server exited with code ${child.exitCode}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = new Socket();
      socket.once('connect', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => (socket.destroy(), resolve(false)));
      socket.connect(port, '127.0.0.1');
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`the Temporal dev server did not open port ${port} within ${timeoutMs} ms`);
}

export interface DevServerOptions {
  /** gRPC port; 0 picks a free one. */
  port?: number;
  /** UI port; omit for a headless server. */
  uiPort?: number;
  /** Persist to this SQLite file; omit for in-memory. */
  dbFile?: string;
  /** How often the history shard may read each of its task queues (default 1 000; the server's own default is 20). */
  historyQueueReadsPerSecond?: number;
  log?: (line: string) => void;
}

export interface DevServer {
  address: string;
  uiUrl: string | undefined;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** How often the dev server's single history shard may read each of its task queues. */
const QUEUE_READER_POLLS_PER_SECOND = 1_000;

/** How many times a start that lost one of its ports to another process is tried again with fresh ports. */
const PORT_CLASH_ATTEMPTS = 3;

/**
 * Starts `temporal server start-dev` with Pylon's search attributes registered. The dev server also binds
 * ports it picks itself (metrics, its services' internal ones); another process can take one of those, or
 * one picked here, between the check and the bind, so a start that fails with "address already in use" is
 * tried again.
 */
export async function startTemporalDevServer(options: DevServerOptions = {}): Promise<DevServer> {
  const cli = findOrBuildTemporalCli(options.log);
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(cli, options);
    } catch (error) {
      if (!(error instanceof PortClash) || attempt >= PORT_CLASH_ATTEMPTS) throw error;
      options.log?.(`The Temporal dev server lost a port to another process; starting it again (attempt ${attempt + 1})`);
    }
  }
}

class PortClash extends Error {}

async function startOnce(cli: string, options: DevServerOptions): Promise<DevServer> {
  const port = options.port || (await freePort());
  const args = ['server', 'start-dev', '--ip', '127.0.0.1', '--port', String(port), '--log-level', 'error', '--http-port', String(await freePort())];
  if (options.uiPort) args.push('--ui-port', String(options.uiPort), '--ui-ip', '127.0.0.1');
  else args.push('--headless');
  if (options.dbFile) {
    mkdirSync(dirname(options.dbFile), { recursive: true });
    args.push('--db-filename', options.dbFile);
  }
  for (const name of Object.values(SEARCH_ATTRIBUTES)) args.push('--search-attribute', `${name}=Keyword`);
  // Task queue fairness: work is dispatched round robin between organisations (fairness key = org id).
  args.push('--dynamic-config-value', 'matching.enableFairness=true');
  // The dev server has one history shard, whose queue readers poll at most 20 times a second by default:
  // above ~5 workflows/s every task then waits for the next poll (a bare one-activity workflow's p50 went
  // 33 → 144 ms between 4 and 13 workflows/s). A cluster spreads this over its many shards.
  for (const queue of ['transfer', 'timer', 'visibility'])
    args.push('--dynamic-config-value', `history.${queue}ProcessorMaxPollRPS=${options.historyQueueReadsPerSecond ?? QUEUE_READER_POLLS_PER_SECOND}`);
  // One partition per task queue (the server's default is 4). A single server gains nothing from more,
  // and with a few pollers per queue a task written to a partition no poller waits on sits there until
  // it is forwarded: a run's one workflow task waited up to 1-2 s under load (bench agent-run-e2e).
  for (const kind of ['Read', 'Write']) args.push('--dynamic-config-value', `matching.numTaskqueue${kind}Partitions=1`);
  const child = spawn(cli, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  try {
    await waitForPort(port, 60_000, child);
  } catch (error) {
    child.kill('SIGKILL');
    const failure = `${(error as Error).message}\n${stderr}`;
    throw stderr.includes('address already in use') ? new PortClash(failure) : new Error(failure);
  }
  return {
    address: `127.0.0.1:${port}`,
    uiUrl: options.uiPort ? `http://127.0.0.1:${options.uiPort}` : undefined,
    process: child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
      }),
  };
}
