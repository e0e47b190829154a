import { existsSync, readFileSync } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { errorCode, isNotFound, readJson, removeQuietly, writeJsonAtomic } from './local-job-files';

/** What a render lock says about the attempt holding it. */
export interface RenderLockInfo {
  /** Names the attempt's files; also on ffmpeg's command line, which lets a pid be recognised. */
  token: string;
  /** The worker while preparing or finishing, ffmpeg while rendering. */
  pid: number;
  host: string;
  phase: 'preparing' | 'rendering' | 'finishing';
  startedAt: string;
  /** Length of the video being made, for the wait estimate. */
  totalSeconds?: number;
}

export interface RenderLock {
  /** Undefined while the holder is still writing it (or if it is torn). */
  info: RenderLockInfo | undefined;
  /** The latest sign of life: the lock's or the progress file's mtime, in ms. */
  heartbeatMs: number;
}

export function lockInfo(token: string, phase: RenderLockInfo['phase'], pid = process.pid, totalSeconds?: number): RenderLockInfo {
  return { token, pid, host: hostname(), phase, startedAt: new Date().toISOString(), totalSeconds };
}

const HAS_PROC = existsSync('/proc/self/cmdline');

/** Creates the lock if no one holds it (O_EXCL); false if it exists. */
export async function tryAcquireLock(file: string, info: RenderLockInfo): Promise<boolean> {
  let handle;
  try {
    handle = await open(file, 'wx');
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return false;
    throw error;
  }
  try {
    await handle.writeFile(`${JSON.stringify(info)}\n`);
  } finally {
    await handle.close();
  }
  return true;
}

/** Rewrites the lock (new phase or pid, fresh mtime) if it is still this attempt's; false if it is not. */
export async function updateLock(file: string, info: RenderLockInfo): Promise<boolean> {
  const current = await readJson<RenderLockInfo>(file).catch(() => undefined);
  if (current?.token !== info.token) return false;
  await writeJsonAtomic(file, info);
  return true;
}

/** Removes the lock if it is still this attempt's. */
export async function releaseLock(file: string, token: string): Promise<void> {
  const info = await readJson<RenderLockInfo>(file).catch(() => undefined);
  if (info?.token === token) await removeQuietly(file);
}

export async function readLock(file: string, progressFile: (token: string) => string): Promise<RenderLock | undefined> {
  let lockMtime: number;
  try {
    lockMtime = (await stat(file)).mtimeMs;
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
  const info = await readJson<RenderLockInfo>(file).catch(() => undefined);
  let heartbeatMs = lockMtime;
  if (info?.token) {
    const progress = await stat(progressFile(info.token)).catch(() => undefined);
    if (progress) heartbeatMs = Math.max(heartbeatMs, progress.mtimeMs);
  }
  return { info, heartbeatMs };
}

/**
 * A lock is live if its heartbeat is fresh and its process is still this attempt's: the pid exists
 * and, on Linux while ffmpeg renders, its command line carries the attempt's token (a reused pid or
 * an unreaped zombie does not). A lock from another host is judged by its heartbeat alone.
 */
export function isLockLive(lock: RenderLock, staleAfterMs: number, now = Date.now()): boolean {
  if (now - lock.heartbeatMs > staleAfterMs) return false;
  const { info } = lock;
  if (!info) return true;
  if (info.host !== hostname()) return true;
  if (!pidExists(info.pid)) return false;
  if (info.phase === 'rendering') return commandLineHas(info.pid, info.token) !== false;
  return true;
}

/** Whether the pid runs this attempt's ffmpeg: true/false on Linux, undefined where /proc cannot tell. */
export function commandLineHas(pid: number, token: string): boolean | undefined {
  if (!HAS_PROC) return undefined;
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(token);
  } catch (error) {
    return errorCode(error) === 'ENOENT' ? false : undefined;
  }
}

export function pidExists(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errorCode(error) === 'EPERM';
  }
}
