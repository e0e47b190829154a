import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { findOrBuildTemporalCli, startTemporalDevServer } from './dev-server';

/**
 * A stand-in for the Temporal CLI that fails its first `failures` starts with `message` on stderr, as the
 * real one does when another process took a port it picked, then runs the real CLI. Counts its starts.
 */
function flakyCli(failures: number, message: string): { path: string; starts: () => number } {
  const dir = mkdtempSync(join(tmpdir(), 'pylon-flaky-cli-'));
  const counter = join(dir, 'starts');
  writeFileSync(counter, '');
  const path = join(dir, 'temporal');
  writeFileSync(
    path,
    `#!/bin/sh
echo start >> '${counter}'
if [ "$(wc -l < '${counter}')" -le ${failures} ]; then echo '${message}' >&2; exit 1; fi
exec '${findOrBuildTemporalCli()}' "$@"
`,
  );
  chmodSync(path, 0o755);
  return { path, starts: () => readFileSync(counter, 'utf8').split('\n').filter(Boolean).length };
}

async function withCli<T>(path: string, body: () => Promise<T>): Promise<T> {
  const previous = process.env.TEMPORAL_CLI;
  process.env.TEMPORAL_CLI = path;
  try {
    return await body();
  } finally {
    if (previous === undefined) delete process.env.TEMPORAL_CLI;
    else process.env.TEMPORAL_CLI = previous;
  }
}

describe('startTemporalDevServer', () => {
  const servers: { stop(): Promise<void> }[] = [];
  after(() => Promise.all(servers.map((server) => server.stop())));

  it('starts again when another process took one of its ports meanwhile', async () => {
    const cli = flakyCli(1, 'failed listening for HTTP API on 127.0.0.1:35853: listen tcp 127.0.0.1:35853: bind: address already in use');
    const lines: string[] = [];
    const server = await withCli(cli.path, () => startTemporalDevServer({ log: (line) => lines.push(line) }));
    servers.push(server);
    assert.equal(cli.starts(), 2);
    assert.match(lines.join('\n'), /lost a port to another process/);
    assert.match(server.address, /^127\.0\.0\.1:\d+$/);
  });

  it('gives up after three clashes, with the server’s own words', async () => {
    const cli = flakyCli(5, 'listen tcp 127.0.0.1:7233: bind: address already in use');
    await assert.rejects(
      withCli(cli.path, () => startTemporalDevServer()),
      /exited with code 1\n.*address already in use/,
    );
    assert.equal(cli.starts(), 3);
  });

  it('does not retry any other failure', async () => {
    const cli = flakyCli(5, 'unable to open database file');
    await assert.rejects(
      withCli(cli.path, () => startTemporalDevServer()),
      /unable to open database file/,
    );
    assert.equal(cli.starts(), 1);
  });
});
