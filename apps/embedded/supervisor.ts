import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { PYLON_NODE_FLAGS } from '@pylon/config';

/**
 * Runs one Node process of the stack, prefixes its output, and restarts it if it dies unexpectedly
 * (with a growing delay), the way a process manager would.
 */
export class SupervisedProcess {
  private child: ChildProcess | undefined;
  private stopping = false;
  private restarts = 0;

  constructor(
    private readonly name: string,
    private readonly script: string,
    private readonly env: Record<string, string>,
  ) {}

  start(): void {
    const child = spawn(process.execPath, [...PYLON_NODE_FLAGS, this.script], {
      env: { ...process.env, ...this.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    for (const stream of [child.stdout, child.stderr]) {
      if (stream) createInterface({ input: stream }).on('line', (line) => console.log(`[${this.name}] ${line}`));
    }
    child.once('exit', (code, signal) => {
      if (this.stopping) return;
      const delay = Math.min(30_000, 1_000 * 2 ** this.restarts++);
      console.log(`[${this.name}] exited (${signal ?? code}); restarting in ${delay / 1000}s`);
      setTimeout(() => !this.stopping && this.start(), delay).unref();
    });
  }

  async stop(): Promise<void> {
    this.stopping = true;
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
    });
  }
}
