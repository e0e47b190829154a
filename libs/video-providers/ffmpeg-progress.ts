import { readFile } from 'node:fs/promises';

export interface FfmpegProgress {
  /** How much output has been written, in seconds. */
  outTimeSeconds: number;
  /** Encoding speed relative to real time (e.g. 9.3 for "9.3x"), if ffmpeg has reported one. */
  speed?: number;
  ended: boolean;
}

/** The latest block of an ffmpeg `-progress` file (key=value lines, a block ending in `progress=...`); undefined if absent or empty. */
export async function readFfmpegProgress(file: string): Promise<FfmpegProgress | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
  const values = new Map<string, string>();
  for (const line of text.split('\n')) {
    const at = line.indexOf('=');
    if (at > 0) values.set(line.slice(0, at).trim(), line.slice(at + 1).trim());
  }
  if (values.size === 0) return undefined;
  // out_time_us is microseconds; ffmpeg 4.x also writes out_time_ms with the same (microsecond) value.
  const micros = Number(values.get('out_time_us') ?? values.get('out_time_ms'));
  const speed = Number.parseFloat(values.get('speed') ?? '');
  return {
    outTimeSeconds: Number.isFinite(micros) && micros > 0 ? micros / 1e6 : 0,
    speed: Number.isFinite(speed) && speed > 0 ? speed : undefined,
    ended: values.get('progress') === 'end',
  };
}
