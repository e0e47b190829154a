import { existsSync } from 'node:fs';
import { VideoProviderUnavailableError } from './video-provider-errors';

const SYSTEM_DEJAVU = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';

/** The ffmpeg that `@ffmpeg-installer/ffmpeg` ships for this platform. */
export function installedFfmpegPath(): string {
  try {
    // Required lazily: the package throws (a string) on platforms it has no binary for.
    const { path } = require('@ffmpeg-installer/ffmpeg') as { path: string };
    return path;
  } catch (error) {
    throw new VideoProviderUnavailableError(
      `the local video renderer needs ffmpeg, and @ffmpeg-installer/ffmpeg has none for ${process.platform}-${process.arch}: ${String(error)}`,
    );
  }
}

/** DejaVu Sans from the `dejavu-fonts-ttf` package, else the system's copy. */
export function dejaVuSansPath(): string {
  const candidates: string[] = [];
  try {
    candidates.push(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'));
  } catch {
    // package missing: try the system font
  }
  candidates.push(SYSTEM_DEJAVU);
  const found = candidates.find((file) => existsSync(file));
  if (!found) {
    throw new VideoProviderUnavailableError(
      `the local video renderer needs the DejaVu Sans font: install dejavu-fonts-ttf or provide ${SYSTEM_DEJAVU}`,
    );
  }
  return found;
}
