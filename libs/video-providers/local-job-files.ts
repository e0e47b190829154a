import { randomBytes } from 'node:crypto';
import { readFile, rename, unlink, writeFile } from 'node:fs/promises';

/** Writes JSON through a temporary name and a rename, so readers see the old or the new file, never half of one. */
export async function writeJsonAtomic(file: string, value: unknown): Promise<void> {
  const temp = `${file}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(temp, `${JSON.stringify(value, null, 2)}\n`);
  try {
    await rename(temp, file);
  } catch (error) {
    await removeQuietly(temp);
    throw error;
  }
}

/** The parsed file, or undefined if it does not exist or does not parse (a torn or foreign file). */
export async function readJson<T>(file: string): Promise<T | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}

export async function removeQuietly(...files: string[]): Promise<void> {
  await Promise.all(files.map((file) => unlink(file).catch(() => undefined)));
}

export function isNotFound(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}

export function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}
