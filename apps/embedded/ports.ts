import { createServer } from 'node:net';

/** A port the embedded stack will listen on, and the setting that moves it. */
export interface WantedPort {
  port: number;
  host: string;
  /** What listens there, e.g. "the API". */
  what: string;
  /** The environment variable that chooses another port. */
  setting: string;
}

function isFree({ port, host }: WantedPort): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => (error.code === 'EADDRINUSE' ? resolve(false) : reject(error)));
    probe.listen(port, host, () => probe.close(() => resolve(true)));
  });
}

/**
 * Why the stack cannot start: the ports already taken, each with the setting that moves it; null when
 * all are free. Checked before anything starts, because a taken API port otherwise makes the API
 * restart forever, and a taken Temporal port would make the stack talk to whatever server holds it.
 */
export async function takenPortsMessage(wanted: WantedPort[]): Promise<string | null> {
  const taken: WantedPort[] = [];
  for (const port of wanted) if (!(await isFree(port))) taken.push(port);
  if (taken.length === 0) return null;
  const lines = taken.map((port) => `  ${port.host}:${port.port} (${port.what}): choose another with ${port.setting}=…`);
  return `Pylon cannot start: ${taken.length === 1 ? 'a port it needs is' : 'ports it needs are'} already in use (another Pylon still running?).\n${lines.join('\n')}`;
}

/** Exits with takenPortsMessage's explanation when a wanted port is taken. */
export async function exitIfPortsTaken(wanted: WantedPort[]): Promise<void> {
  const taken = await takenPortsMessage(wanted);
  if (!taken) return;
  console.error(taken);
  process.exit(1);
}
