import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { PYLON_NODE_FLAGS } from '@pylon/config';

describe('npm start on a machine where the API port is taken', () => {
  it('exits at once with the port and the setting that moves it, having started nothing', async () => {
    const squatter = createServer();
    await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
    const port = (squatter.address() as { port: number }).port;
    const dataDir = mkdtempSync(join(tmpdir(), 'pylon-embedded-ports-'));
    try {
      const started = Date.now();
      const result = spawnSync(process.execPath, [...PYLON_NODE_FLAGS, join(__dirname, '..', '..', 'apps', 'embedded', 'main.js')], {
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          PORT: String(port),
          HOST: '127.0.0.1',
          DATA_DIR: dataDir,
          TEMPORAL_ADDRESS: '127.0.0.1:1',
          DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
        },
        encoding: 'utf8',
        timeout: 30_000,
      });
      assert.equal(result.status, 1, `${result.stdout}\n${result.stderr}`);
      assert.match(
        result.stderr,
        new RegExp(`Pylon cannot start: a port it needs is already in use .*\\n  127\\.0\\.0\\.1:${port} \\(the API\\): choose another with PORT=…`),
      );
      assert.doesNotMatch(result.stdout, /Applied migrations|Temporal dev server at|\[api\]/);
      assert.ok(Date.now() - started < 20_000, 'no waiting for a server that cannot start');
      assert.deepEqual(
        readdirSync(dataDir).filter((name) => name !== 'admin-token'),
        [],
        'nothing started, so nothing stored',
      );
    } finally {
      squatter.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
