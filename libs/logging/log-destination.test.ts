import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'node:test';

/** Runs `script` in a child Node process that has `bufferedStdout` and pino; resolves with what it wrote, as it arrives. */
function child(script: string) {
  // `writes` counts the writes to standard output, empty ones too (fs.write is how sonic-boom writes).
  const program = `const fs = require('fs'); let writes = 0; const write = fs.write;
    fs.write = function (fd, ...rest) { if (fd === 1) writes++; return write.call(this, fd, ...rest); };
    const pino = require('pino'); const { bufferedStdout } = require(${JSON.stringify(join(__dirname, 'log-destination'))});
    const log = pino({ base: null, timestamp: false }, bufferedStdout()); ${script}`;
  const process_ = spawn(process.execPath, ['-e', program], { stdio: ['ignore', 'pipe', 'pipe'], cwd: join(__dirname, '..', '..', '..') });
  let out = '';
  let err = '';
  process_.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  process_.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => process_.once('close', resolve));
  return { output: () => out, errors: () => err, exited, kill: () => process_.kill('SIGKILL') };
}

const lines = (text: string) =>
  text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line).msg as string);

describe('bufferedStdout', () => {
  it('writes a lone line within a fraction of a second while the process keeps running', async () => {
    const running = child(`log.info('alone'); setInterval(() => {}, 1000);`);
    const deadline = Date.now() + 2_000;
    while (!running.output().includes('alone') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    running.kill();
    await running.exited;
    assert.deepEqual(lines(running.output()), ['alone']);
  });

  it('writes nothing while nothing is logged, and a lone line in one write', async () => {
    const idle = child(`setTimeout(() => { process.stderr.write(writes + ' '); log.info('alone'); }, 1_000);
      setTimeout(() => { process.stderr.write(String(writes)); process.exit(0); }, 2_000);`);
    assert.equal(await idle.exited, 0);
    assert.equal(idle.errors(), '0 1');
    assert.deepEqual(lines(idle.output()), ['alone']);
  });

  it('writes every line, in order, when the process exits at once after logging', async () => {
    const exiting = child(`for (let i = 0; i < 500; i++) log.info('line ' + i); process.exit(3);`);
    assert.equal(await exiting.exited, 3);
    assert.deepEqual(
      lines(exiting.output()),
      Array.from({ length: 500 }, (_, i) => `line ${i}`),
    );
  });
});
