import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { runMigrations } from '@pylon/db';
import { NativePostgres, systemPostgresBinaries } from '../../apps/cluster/native-postgres';
import { startTemporalServer, temporalServerBinaries, type TemporalServer } from '../../apps/cluster/temporal-server';
import { freePort } from '../../apps/embedded/dev-server';

/**
 * A cluster topology's servers, owned by one test file or benchmark so that it may restart them: a Temporal
 * server on its own PostgreSQL (the system's) and a PostgreSQL with pgvector (pgserver) for Pylon's data,
 * migrated. Stacks join it with `env` (DATABASE_URL, TEMPORAL_ADDRESS).
 */
export class OwnCluster {
  private constructor(
    private readonly dir: string,
    readonly temporalPostgres: NativePostgres,
    readonly pylonPostgres: NativePostgres,
    readonly temporal: TemporalServer,
    readonly databaseUrl: string,
  ) {}

  static async start(): Promise<OwnCluster> {
    const dir = mkdtempSync(join(tmpdir(), 'pylon-own-cluster-'));
    const temporalPostgres = new NativePostgres(join(dir, 'temporal-postgres'), await freePort(), systemPostgresBinaries());
    const pylonPostgres = new NativePostgres(join(dir, 'pylon-postgres'), await freePort());
    await Promise.all([temporalPostgres.start(), pylonPostgres.start()]);
    const admin = new Client({ connectionString: pylonPostgres.url });
    await admin.connect();
    await admin.query('CREATE DATABASE pylon');
    await admin.end();
    const url = new URL(pylonPostgres.url);
    url.pathname = '/pylon';
    await runMigrations(url.toString());
    const temporal = await startTemporalServer({ binaries: temporalServerBinaries(), postgresUrl: temporalPostgres.url, dir: join(dir, 'temporal') });
    return new OwnCluster(dir, temporalPostgres, pylonPostgres, temporal, url.toString());
  }

  /** What a Stack needs to run on this cluster. */
  get env(): Record<string, string> {
    return { DATABASE_URL: this.databaseUrl, TEMPORAL_ADDRESS: this.temporal.address };
  }

  async query<T = any>(text: string, params: unknown[] = []): Promise<T[]> {
    const client = new Client({ connectionString: this.databaseUrl });
    await client.connect();
    try {
      return (await client.query(text, params)).rows as T[];
    } finally {
      await client.end();
    }
  }

  async stop(): Promise<void> {
    await this.temporal.stop();
    await Promise.all([this.temporalPostgres.stop(), this.pylonPostgres.stop()]);
    rmSync(this.dir, { recursive: true, force: true });
  }
}
