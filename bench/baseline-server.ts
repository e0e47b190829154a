import { spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../apps/embedded/dev-server';
import { cpuProfileFlags } from '../test/support/cpu-profile';
import { AppProcess } from '../test/support/stack';
import { sleep } from './support';

/**
 * Runs one of the benchmark's own scripts (`name`.js beside this file, with `args`) as a child process,
 * its output in a log file of its own; it writes a CPU profile under PYLON_CPU_PROFILE_DIR like Pylon's
 * processes.
 */
export function startBenchProcess(name: string, env: Record<string, string>, args: string[] = []): AppProcess {
  const logFile = join(mkdtempSync(join(tmpdir(), 'pylon-bench-')), `${name}.log`);
  const out = createWriteStream(logFile);
  const child = spawn(process.execPath, [...cpuProfileFlags(name), join(__dirname, `${name}.js`), ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Two streams into one file: neither may end it (the other could still write); the exit does.
  child.stdout.pipe(out, { end: false });
  child.stderr.pipe(out, { end: false });
  child.once('exit', () => setImmediate(() => out.end()));
  return new AppProcess(name, child, logFile);
}

/** Starts one of the bare baseline servers, like the API, on a free port; resolves once it answers HTTP. */
export async function startBaselineServer(name: string, env: Record<string, string>): Promise<{ process: AppProcess; url: string }> {
  const port = await freePort();
  const server = startBenchProcess(name, { ...env, PORT: String(port) });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (!server.running) throw new Error(`${name} exited:\n${server.log()}`);
    const up = await fetch(url).then(
      () => true,
      () => false,
    );
    if (up) return { process: server, url };
    if (Date.now() > deadline) throw new Error(`${name} did not start:\n${server.log()}`);
    await sleep(100);
  }
}
