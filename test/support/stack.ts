import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { PYLON_NODE_FLAGS } from '@pylon/config';
import { freePort } from '../../apps/embedded/dev-server';
import { cpuProfileFlags } from './cpu-profile';
import { testInfra } from './infra';

/** The compiled tree the tests run from (dist-test/, see `npm run build:test`): its apps are the ones started. */
const DIST = join(__dirname, '..', '..');
/** The run's log directory (`npm test` makes one and prints it), so that one grep covers every app log of a run. */
const LOG_DIR = process.env.PYLON_TEST_LOG_DIR || mkdtempSync(join(tmpdir(), 'pylon-test-logs-'));
/** Which test file started the process, in its log file's name. */
const TEST_FILE = basename(process.argv[1] ?? 'test', '.js');
/**
 * `npm test` on the cluster topology (PYLON_TEST_TOPOLOGY=cluster, see startInfrastructure): every stack is
 * two API replicas behind one port (apps/cluster/api-replicas) and two workers, as `npm run start:cluster` runs them.
 */
export const CLUSTER_TOPOLOGY = process.env.PYLON_TEST_TOPOLOGY === 'cluster';
const DEFAULT_API_REPLICAS = CLUSTER_TOPOLOGY ? 2 : 1;
const DEFAULT_WORKERS = CLUSTER_TOPOLOGY ? 2 : 1;

export class AppProcess {
  private exited: Promise<void>;

  constructor(
    readonly name: string,
    readonly child: ChildProcess,
    readonly logFile: string,
  ) {
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  log(): string {
    return readFileSync(this.logFile, 'utf8');
  }

  /** SIGKILL: the process gets no chance to clean up, as in a crash. */
  async kill(): Promise<void> {
    if (this.running) this.child.kill('SIGKILL');
    await this.exited;
  }

  async stop(): Promise<void> {
    if (!this.running) return;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    await this.exited;
    clearTimeout(timer);
  }
}

/** Several processes of one tier (the workers of a stack) handled as one: killing it kills them all. */
export class ProcessGroup {
  constructor(readonly members: AppProcess[]) {}

  get running(): boolean {
    return this.members.some((member) => member.running);
  }

  get logFile(): string {
    return this.members.map((member) => member.logFile).join(', ');
  }

  log(): string {
    return this.members.map((member) => member.log()).join('\n');
  }

  async kill(): Promise<void> {
    await Promise.all(this.members.map((member) => member.kill()));
  }

  async stop(): Promise<void> {
    await Promise.all(this.members.map((member) => member.stop()));
  }
}

function launch(name: string, script: string, env: Record<string, string>): AppProcess {
  const logFile = join(LOG_DIR, `${TEST_FILE}.${name}-${randomBytes(3).toString('hex')}.log`);
  const out = createWriteStream(logFile);
  const child = spawn(process.execPath, [...PYLON_NODE_FLAGS, ...cpuProfileFlags(name), join(DIST, script)], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Both streams share one file: neither may end it, or a late write from the other would throw.
  child.stdout?.pipe(out, { end: false });
  child.stderr?.pipe(out, { end: false });
  child.once('close', () => out.end());
  return new AppProcess(name, child, logFile);
}

async function waitFor(what: string, process: AppProcess, ready: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!process.running) throw new Error(`${what} exited while starting:\n${process.log()}`);
    if (await ready().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what} was not ready within ${timeoutMs} ms:\n${process.log()}`);
}

export interface StackOptions {
  /** Extra environment for both processes, e.g. OPENAI_BASE_URL of a fake provider. */
  env?: Record<string, string>;
  /** Start a worker too (the default); `false` starts the API alone, so work waits in its task queues. */
  worker?: boolean;
  /** The path the API must answer 200 on before it counts as started (default `/readyz`). */
  apiReadyPath?: string;
  /** API replicas behind the stack's port (default: 1, or 2 on the cluster topology). */
  apiReplicas?: number;
  /** Worker processes (default: 1, or 2 on the cluster topology). */
  workers?: number;
}

/** An API and a worker of their own, on a task queue of their own, against the test infrastructure. */
export class Stack {
  /** The API: one process, or on the cluster topology the primary of its replicas (killing it ends them all). */
  api!: AppProcess;
  /** The worker, or on the cluster topology both workers. */
  worker!: ProcessGroup;
  url!: string;
  readonly env: Record<string, string>;
  private readonly apiReadyPath: string;
  private readonly apiReplicas: number;
  private readonly workers: number;
  /** The media directory this stack made for itself (none when the caller gave MEDIA_DIR); removed by stop(). */
  private ownMediaDir?: string;

  constructor(options: StackOptions = {}) {
    this.apiReadyPath = options.apiReadyPath ?? '/readyz';
    this.apiReplicas = options.apiReplicas ?? DEFAULT_API_REPLICAS;
    this.workers = options.workers ?? DEFAULT_WORKERS;
    const infra = testInfra();
    this.env = {
      DATABASE_URL: infra.databaseUrl,
      TEMPORAL_ADDRESS: infra.temporalAddress,
      ADMIN_TOKEN: infra.adminToken,
      TEMPORAL_TASK_QUEUE_PREFIX: `pylon-test-${randomBytes(4).toString('hex')}`,
      LLM_HEARTBEAT_TIMEOUT_SECONDS: '3',
      // The suites send far more than the default 50 requests/s with one key (200 concurrent creates, 100
      // concurrent generations, polling every 50 ms), so tests raise the per-key rate; limits.e2e sets its own.
      RATE_LIMIT_PER_SECOND: '100000',
      RATE_LIMIT_BURST: '100000',
      ...options.env,
    };
  }

  static async start(options: StackOptions = {}): Promise<Stack> {
    const stack = new Stack(options);
    const port = await freePort();
    stack.url = `http://127.0.0.1:${port}`;
    stack.env.PORT = String(port);
    stack.env.PUBLIC_URL ??= stack.url;
    if (!stack.env.MEDIA_DIR) stack.env.MEDIA_DIR = stack.ownMediaDir = mkdtempSync(join(tmpdir(), 'pylon-test-media-'));
    try {
      await Promise.all([stack.startApi(), options.worker === false ? undefined : stack.startWorker()]);
    } catch (error) {
      // A process that did start must not outlive the failed start (its pipes would keep the test file running).
      await stack.stop();
      throw error;
    }
    return stack;
  }

  async startApi(): Promise<void> {
    this.api =
      this.apiReplicas > 1
        ? launch('api', 'apps/cluster/api-replicas.js', { ...this.env, HOST: '127.0.0.1', API_REPLICAS: String(this.apiReplicas) })
        : launch('api', 'apps/api/main.js', { ...this.env, HOST: '127.0.0.1' });
    await waitFor('the API', this.api, async () => (await fetch(`${this.url}${this.apiReadyPath}`)).ok);
  }

  /** Another API process on the same database and Temporal; `env` adds to (or overrides) the stack's settings. */
  async startApiReplica(env: Record<string, string> = {}): Promise<{ api: AppProcess; url: string }> {
    const url = `http://127.0.0.1:${await freePort()}`;
    const api = launch('api-replica', 'apps/api/main.js', { ...this.env, ...env, HOST: '127.0.0.1', PORT: new URL(url).port });
    await waitFor('the API replica', api, async () => (await fetch(`${url}/readyz`)).ok);
    return { api, url };
  }

  /** Starts the stack's workers afresh; any of the previous ones still running are stopped first. */
  async startWorker(): Promise<void> {
    await this.worker?.stop();
    const workers = Array.from({ length: this.workers }, () => launch('worker', 'apps/worker/main.js', this.env));
    this.worker = new ProcessGroup(workers);
    await Promise.all(workers.map((worker) => waitFor('the worker', worker, async () => worker.log().includes('pylon worker polling'))));
  }

  async stop(): Promise<void> {
    await Promise.all([this.api?.stop(), this.worker?.stop()]);
    if (this.ownMediaDir) rmSync(this.ownMediaDir, { recursive: true, force: true });
  }
}
