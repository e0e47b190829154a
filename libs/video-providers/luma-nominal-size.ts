import type { AspectRatio } from './video-provider';
import { isAspectRatio } from './video-provider';
import type { LumaResolution } from './luma-api';

const SHORT_SIDE: Record<LumaResolution, number> = { '540p': 540, '720p': 720, '1080p': 1080, '4k': 2160 };

/**
 * The nominal frame size of a Luma video. Luma's Generation object reports no dimensions, so this
 * is derived from what was asked: the short side is the resolution's line count (720p → 720) and
 * the long side follows the aspect ratio, rounded to an even number (16:9 at 720p → 1280x720,
 * 9:21 → 720x1680). The real file may differ by a few pixels; read it if exact size matters.
 */
export function lumaNominalSize(aspectRatio: AspectRatio, resolution: LumaResolution): { width: number; height: number } {
  const [w, h] = aspectRatio.split(':').map(Number) as [number, number];
  const short = SHORT_SIDE[resolution];
  const long = 2 * Math.round((short * Math.max(w, h)) / Math.min(w, h) / 2);
  return w >= h ? { width: long, height: short } : { width: short, height: long };
}

/** Reads the aspect ratio and resolution Luma echoes back in `request`, falling back to the given ones. */
export function lumaSizeOf(
  echoed: { aspect_ratio?: string; resolution?: string } | null | undefined,
  fallback: { aspectRatio: AspectRatio; resolution: LumaResolution },
): { width: number; height: number } {
  const aspectRatio = isAspectRatio(echoed?.aspect_ratio) ? echoed.aspect_ratio : fallback.aspectRatio;
  const resolution = isLumaResolution(echoed?.resolution) ? echoed.resolution : fallback.resolution;
  return lumaNominalSize(aspectRatio, resolution);
}

function isLumaResolution(value: unknown): value is LumaResolution {
  return typeof value === 'string' && value in SHORT_SIDE;
}
