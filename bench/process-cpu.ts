import { readFileSync, readdirSync } from 'node:fs';
import type { Infrastructure } from '../test/support/infrastructure';
import type { Stack } from '../test/support/stack';

/** Linux reports CPU time in clock ticks of 1/100 s (USER_HZ, the same on every architecture Node runs on). */
const MS_PER_TICK = 10;

/** CPU time (user + system, all threads) a process has used so far, in ms; 0 where /proc cannot tell (gone, not Linux). */
function processCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * MS_PER_TICK;
  } catch {
    return 0;
  }
}

/** The processes whose command name is `name` (e.g. every backend of a PostgreSQL server). */
export function processesNamed(name: string): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  return entries
    .filter((entry) => /^\d+$/.test(entry))
    .flatMap((pid) => {
      try {
        return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === name ? [Number(pid)] : [];
      } catch {
        return [];
      }
    });
}

/** A process and its children (an API replicas primary and its replicas; a postmaster and its backends). */
export function withChildren(pid: number | undefined): number[] {
  if (!pid) return [];
  try {
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
    return [pid, ...(children ? children.split(' ').map(Number) : [])];
  } catch {
    return [pid];
  }
}

/** Where the CPU went: each part is a list of processes (asked again at every reading, as backends come and go), or this process. */
export type CpuParts = Record<string, (() => number[]) | 'this process'>;

function readParts(parts: CpuParts): Map<string, Map<number, number>> {
  return new Map(
    Object.entries(parts).map(([name, pids]) => {
      if (pids === 'this process') {
        const usage = process.cpuUsage();
        return [name, new Map([[process.pid, (usage.user + usage.system) / 1000]])];
      }
      return [name, new Map(pids().map((pid) => [pid, processCpuMs(pid)]))];
    }),
  );
}

/**
 * The CPU time each part used between start() and the returned function's call, in ms. A process that
 * appeared meanwhile counts from 0; one that ended meanwhile is lost (its time cannot be read any more).
 */
export function measureCpu(parts: CpuParts): () => Record<string, number> {
  const before = readParts(parts);
  return () => {
    const after = readParts(parts);
    return Object.fromEntries(
      [...after].map(([name, pids]) => {
        let used = 0;
        for (const [pid, ms] of pids) used += ms - (before.get(name)?.get(pid) ?? 0);
        return [name, used];
      }),
    );
  };
}

/** The processes of a benchmark's stack: Temporal, Pylon's API and worker, the database, and the benchmark itself. */
export function stackCpuParts(infra: Infrastructure, stack: Stack): CpuParts {
  const pids = (pid: number | undefined) => (pid ? [pid] : []);
  return {
    'Temporal server': () => pids(infra.processIds.temporal),
    'Pylon API': () => withChildren(stack.api.child.pid),
    'Pylon worker': () => stack.worker.members.flatMap((worker) => pids(worker.child.pid)),
    database: () => (infra.processIds.database ? pids(infra.processIds.database) : processesNamed('postgres')),
    'benchmark process': 'this process',
  };
}
