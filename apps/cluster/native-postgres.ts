import { execFile } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
/** scripts/, seen from apps/cluster/ in dist/ or dist-test/. */
export const SCRIPTS = join(__dirname, '..', '..', '..', 'scripts');

/**
 * A native PostgreSQL server in a data directory of its own, run by scripts/native-postgres.sh: the
 * `pgserver` wheel's (with pgvector) unless `binaries` names another installation's bin/ directory.
 */
export class NativePostgres {
  constructor(
    readonly dataDir: string,
    readonly port: number,
    private readonly binaries?: string,
  ) {}

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  /** The postmaster's pid while it runs (first line of postmaster.pid). */
  get pid(): number | undefined {
    const file = join(this.dataDir, 'postmaster.pid');
    return existsSync(file) ? Number(readFileSync(file, 'utf8').split('\n')[0]) : undefined;
  }

  async start(): Promise<string> {
    await this.script('start', this.dataDir, String(this.port));
    return this.url;
  }

  /** A fast shutdown: open sessions are ended, as when an operator restarts the server. */
  async stop(): Promise<void> {
    await this.script('stop', this.dataDir);
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  /** Runs the script; what it says on stderr (where it keeps the data, say) is passed on to the operator. */
  private async script(...args: string[]): Promise<void> {
    const { stderr } = await run('bash', [join(SCRIPTS, 'native-postgres.sh'), ...args], {
      env: { ...process.env, ...(this.binaries ? { PG_BIN: this.binaries } : {}) },
    });
    if (stderr.trim()) process.stderr.write(stderr.endsWith('\n') ? stderr : `${stderr}\n`);
  }
}

/**
 * The bin/ directory of the system's PostgreSQL (Debian and Ubuntu install it under /usr/lib/postgresql/<version>/),
 * newest first, among those that have the contrib extension btree_gin that Temporal's visibility schema needs.
 */
export function systemPostgresBinaries(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  const found = versions.find(
    (version) => existsSync(join(root, version, 'bin', 'postgres')) && existsSync(join(root, version, 'lib', 'btree_gin.so')),
  );
  if (!found) {
    throw new Error(
      "Temporal's PostgreSQL store needs a PostgreSQL with the contrib extensions (btree_gin): install Debian's `postgresql` package, or set TEMPORAL_POSTGRES_URL",
    );
  }
  return join(root, found, 'bin');
}
