/**
 * The embedded PGlite server in a process of its own, as `npm start` runs it (in its supervisor, apart
 * from the API and the worker). The benchmarks use it so that the database does not share an event
 * loop with their load generator. Prints the server's URL on its first line; stops when its parent
 * closes its standard input or sends SIGTERM.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { PgliteServer } from '@pylon/pglite-server';
import { cpuProfileFlags } from './cpu-profile';

export async function startPgliteProcess(): Promise<{ url: string; pid: number | undefined; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, [...cpuProfileFlags('pglite'), __filename], { stdio: ['pipe', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (line) => resolve(line.trim()));
    child.once('exit', (code) => reject(new Error(`the PGlite process exited (${code}) before it was ready`)));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    url,
    pid: child.pid,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

async function serve(): Promise<void> {
  const server = await PgliteServer.start({});
  const stop = () => void server.stop().finally(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.stdin.once('end', stop);
  process.stdin.resume();
  process.stdout.write(`${server.url}\n`);
}

if (require.main === module) {
  serve().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
