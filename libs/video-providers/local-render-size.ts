import type { AspectRatio } from './video-provider';

/** Modest, even frame sizes (H.264 with yuv420p needs even sides) for the local renderer. */
export const LOCAL_RENDER_SIZES: Readonly<Record<AspectRatio, { width: number; height: number }>> = Object.freeze({
  '16:9': { width: 640, height: 360 },
  '9:16': { width: 360, height: 640 },
  '1:1': { width: 480, height: 480 },
  '4:3': { width: 480, height: 360 },
  '3:4': { width: 360, height: 480 },
  '21:9': { width: 672, height: 288 },
  '9:21': { width: 288, height: 672 },
});
