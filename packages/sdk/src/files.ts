/**
 * A file to upload: a `Blob` or `File` (a `File` brings its name), bytes (`Uint8Array`, `Buffer`, `ArrayBuffer`),
 * or, on Node, the path of a file on disk (read when the call is made; its base name is the file name).
 */
export type FileInput = Blob | Uint8Array | ArrayBuffer | string;

/** A file with the name to send it under. */
export interface NamedFile {
  file: FileInput;
  fileName?: string;
}

/** A file as the API answers it: its bytes, its name and its media type. */
export interface DownloadedFile {
  bytes: Uint8Array;
  fileName: string;
  mediaType: string;
}

/** A name for a file when nothing gives one (bytes without a `fileName`). */
const UNNAMED = 'file';

/** Node's fs, loaded only when a path is given: a name no bundler follows, so a browser build never includes it. */
const NODE_FS = 'node:fs/promises';

/** The file as a Blob and the name it is sent under. */
export async function toBlob(input: FileInput, fileName?: string): Promise<{ blob: Blob; fileName: string }> {
  if (typeof input === 'string') {
    const fs = (await import(/* @vite-ignore */ /* webpackIgnore: true */ NODE_FS)) as { readFile(path: string): Promise<Uint8Array> };
    const bytes = await fs.readFile(input);
    return { blob: new Blob([bytes as Uint8Array<ArrayBuffer>]), fileName: fileName ?? baseName(input) };
  }
  if (input instanceof Blob) {
    const named = (input as Blob & { name?: unknown }).name;
    return { blob: input, fileName: fileName ?? (typeof named === 'string' && named ? named : UNNAMED) };
  }
  return { blob: new Blob([input as Uint8Array<ArrayBuffer> | ArrayBuffer]), fileName: fileName ?? UNNAMED };
}

function baseName(path: string): string {
  return path.split(/[\\/]/).filter(Boolean).at(-1) ?? UNNAMED;
}

/** Appends the fields that are set, as text (`metadata` as JSON text). */
export function appendFields(form: FormData, fields: Record<string, string | Record<string, unknown> | undefined | null>): void {
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined || value === null) continue;
    form.append(name, typeof value === 'string' ? value : JSON.stringify(value));
  }
}

/** The file's name from Content-Disposition: `filename*` (UTF-8) first, then `filename`. */
export function fileNameOf(disposition: string | null): string {
  if (!disposition) return UNNAMED;
  const extended = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(disposition);
  if (extended) {
    try {
      return decodeURIComponent(extended[2]!.trim());
    } catch {
      // fall back to the plain name
    }
  }
  const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]+))/i.exec(disposition);
  return plain ? (plain[1] ?? plain[2]!.trim()).replace(/\\(.)/g, '$1') : UNNAMED;
}
