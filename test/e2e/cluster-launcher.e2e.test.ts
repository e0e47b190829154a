import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { PYLON_NODE_FLAGS } from '@pylon/config';
import { freePort } from '../../apps/embedded/dev-server';
import { CLUSTER_TOPOLOGY } from '../support/stack';

const LAUNCHER = join(__dirname, '..', '..', 'apps', 'cluster', 'main.js');
const STARTED = /Pylon is running\./;

/**
 * `npm run start:cluster` as an operator runs it, with its data under a folder only its owner may enter
 * (a checkout in /root, a `mktemp -d` folder): both PostgreSQL servers run as an unprivileged user when
 * the launcher is root, and must still find their data. Started, answering, and stopped by Ctrl-C.
 */
describe(
  'npm run start:cluster with its data under a 0700 folder',
  { skip: !CLUSTER_TOPOLOGY && 'runs on the cluster topology (PYLON_TEST_TOPOLOGY=cluster)' },
  () => {
    it('starts both PostgreSQL servers, Temporal, the API and a worker, answers, and stops on SIGINT', async () => {
      const locked = mkdtempSync(join(tmpdir(), 'pylon-cluster-launcher-'));
      chmodSync(locked, 0o700);
      const dataDir = join(locked, 'checkout', '.data');
      mkdirSync(dataDir, { recursive: true });
      const [port, temporalPort, temporalUiPort, pylonPostgresPort, temporalPostgresPort] = await Promise.all([
        freePort(),
        freePort(),
        freePort(),
        freePort(),
        freePort(),
      ]);
      const env: Record<string, string> = {
        ...(process.env as Record<string, string>),
        DATA_DIR: dataDir,
        PORT: String(port),
        TEMPORAL_PORT: String(temporalPort),
        TEMPORAL_UI_PORT: String(temporalUiPort),
        PYLON_POSTGRES_PORT: String(pylonPostgresPort),
        TEMPORAL_POSTGRES_PORT: String(temporalPostgresPort),
      };
      for (const name of ['DATABASE_URL', 'TEMPORAL_ADDRESS', 'TEMPORAL_POSTGRES_URL', 'ADMIN_TOKEN']) delete env[name];
      const launcher = spawn(process.execPath, [...PYLON_NODE_FLAGS, LAUNCHER, '--apis', '1', '--workers', '1'], {
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      launcher.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      launcher.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => launcher.on('exit', (code) => resolve(code)));
      try {
        const started = await Promise.race([
          new Promise<boolean>((resolve) => {
            const poll = setInterval(() => STARTED.test(output) && (clearInterval(poll), resolve(true)), 200);
            void exited.then(() => (clearInterval(poll), resolve(false)));
          }),
          new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 240_000)),
        ]);
        assert.ok(started, `the launcher did not start:\n${output}`);
        const health = await fetch(`http://127.0.0.1:${port}/readyz`);
        assert.equal(health.status, 200, await health.text());
        if (process.getuid?.() === 0) {
          assert.ok(lstatSync(join(dataDir, 'cluster', 'pylon-postgres')).isSymbolicLink(), 'kept where the server user can reach it');
          assert.match(output, /cannot enter; its data is kept in \/var\/lib\/pylon-postgres\//);
        }
      } finally {
        launcher.kill('SIGINT');
        const code = await Promise.race([exited, new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 60_000))]);
        if (code === 'hung') launcher.kill('SIGKILL');
        for (const server of ['pylon-postgres', 'temporal-postgres']) {
          const link = join(dataDir, 'cluster', server);
          if (existsSync(link) && lstatSync(link).isSymbolicLink()) rmSync(realpathSync(link), { recursive: true, force: true });
        }
        rmSync(locked, { recursive: true, force: true });
        assert.notEqual(code, 'hung', `the launcher did not stop on SIGINT:\n${output}`);
      }
    });
  },
);
