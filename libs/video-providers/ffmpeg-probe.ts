import { spawn } from 'node:child_process';

export interface VideoProbe {
  width: number;
  height: number;
  durationSeconds: number;
  /** The video codec's short name, e.g. `h264`, `mjpeg`. */
  codec: string;
  /** e.g. `yuv420p`, `yuvj420p`. */
  pixelFormat: string;
}

/** The file could not be read as a video; `message` carries ffmpeg's last stderr line. */
export class VideoProbeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'VideoProbeError';
  }
}

/**
 * Reads the first video stream's size, codec and the container duration by running `ffmpeg -i
 * <file>` (no ffprobe is shipped) and parsing its stderr. A still image has duration 0.
 * Throws VideoProbeError if the file is not a readable video; rejects with the spawn error if
 * ffmpeg itself cannot be run.
 */
export async function probeVideo(ffmpegPath: string, file: string, timeoutMs = 15_000): Promise<VideoProbe> {
  const stderr = await runForStderr(ffmpegPath, ['-hide_banner', '-nostdin', '-i', file], timeoutMs);
  const stream = /Stream #\d+:\d+[^:]*: Video: (\w+)[^,\n]*, (\w+)[^\n]*?, (\d{2,5})x(\d{2,5})[\s,[]/.exec(stderr);
  if (!stream) {
    const said = lastLine(stderr.replace(/At least one output file must be specified\s*$/, ''));
    const reason = said.startsWith(`${file}: `) ? said.slice(file.length + 2) : said;
    throw new VideoProbeError(`${file} is not a readable video: ${reason || 'it has no video stream'}`);
  }
  const duration = /Duration: (\d+):(\d{2}):(\d{2}(?:\.\d+)?)/.exec(stderr);
  const durationSeconds = duration ? Number(duration[1]) * 3600 + Number(duration[2]) * 60 + Number(duration[3]) : 0;
  return { codec: stream[1]!, pixelFormat: stream[2]!, width: Number(stream[3]), height: Number(stream[4]), durationSeconds };
}

/** The last non-empty line of a log. */
export function lastLine(text: string): string {
  const lines = text
    .split(/\r?\n|\r/)
    .map((line) => line.trim())
    .filter(Boolean);
  return lines[lines.length - 1] ?? '';
}

function runForStderr(command: string, args: string[], timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    const chunks: Buffer[] = [];
    let size = 0;
    child.stderr.on('data', (chunk: Buffer) => {
      if (size < 1_000_000) chunks.push(chunk);
      size += chunk.length;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
  });
}
