import pino, { type DestinationStream } from 'pino';

/** How much a buffered log holds before it writes, and how long a line may wait when traffic is light. */
const BUFFER_BYTES = 4096;
const FLUSH_AFTER_MS = 200;

/**
 * Standard output for the API's log, where every request writes its access line: lines gather up to
 * 4 KiB and leave in one write instead of one write each (a system call per request cost as much as the
 * rest of the access line), and at the latest 200 ms after the first line that waits. An idle process
 * writes nothing and wakes for nothing. pino writes what is left when the process exits, however it exits,
 * short of SIGKILL, which can lose the last 200 ms.
 */
export function bufferedStdout(): DestinationStream & { flush(callback?: (error?: Error) => void): void } {
  const stream = pino.destination({ dest: 1, sync: false, minLength: BUFFER_BYTES });
  let flushTimer: NodeJS.Timeout | null = null;
  const flushNow = () => {
    flushTimer = null;
    stream.flush();
  };
  return {
    write(line: string) {
      stream.write(line);
      flushTimer ??= setTimeout(flushNow, FLUSH_AFTER_MS).unref();
    },
    flush: (callback) => stream.flush(callback),
  };
}
