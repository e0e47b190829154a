import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { describe, it } from 'node:test';

/**
 * A process that serves the worker health endpoint (stalled past 500 ms), prints its URL, and blocks its
 * own event loop for 3 s whenever a line arrives on its stdin, as a parse on the loop would.
 */
const CHILD = `
const { serveWorkerHealth } = require(${JSON.stringify(join(__dirname, 'worker-health.js'))});
serveWorkerHealth('127.0.0.1', 0, 500).then((health) => {
  console.log(health.url);
  process.stdin.on('data', () => { const until = Date.now() + 3000; while (Date.now() < until); console.log('unblocked'); });
});
`;

async function health(url: string): Promise<{ status: number; body: { status: string; event_loop_blocked_ms: number } }> {
  const response = await fetch(url);
  return { status: response.status, body: (await response.json()) as { status: string; event_loop_blocked_ms: number } };
}

describe('worker health', () => {
  it('answers while the event loop is blocked, 503 stalled past the threshold, and ok again once it runs', async () => {
    const child = spawn(process.execPath, ['-e', CHILD], { stdio: ['pipe', 'pipe', 'inherit'] });
    try {
      const lines = (async function* () {
        let buffered = '';
        for await (const chunk of child.stdout) {
          buffered += String(chunk);
          let newline;
          while ((newline = buffered.indexOf('\n')) >= 0) {
            yield buffered.slice(0, newline);
            buffered = buffered.slice(newline + 1);
          }
        }
      })();
      const url = (await lines.next()).value as string;
      assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/healthz$/);

      const healthy = await health(url);
      assert.equal(healthy.status, 200);
      assert.equal(healthy.body.status, 'ok');

      child.stdin.write('block\n');
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const stalled = await health(url);
      assert.equal(stalled.status, 503);
      assert.equal(stalled.body.status, 'stalled');
      assert.ok(stalled.body.event_loop_blocked_ms > 500, `blocked for ${stalled.body.event_loop_blocked_ms} ms`);

      assert.equal((await lines.next()).value, 'unblocked');
      await new Promise((resolve) => setTimeout(resolve, 400));
      const recovered = await health(url);
      assert.equal(recovered.status, 200);
      assert.equal(recovered.body.status, 'ok');
    } finally {
      child.kill();
      await once(child, 'exit');
    }
  });
});
