import { filterValue } from './ffmpeg-filter-escape';

export const LOCAL_RENDER_FPS = 25;

export interface LocalRenderSpec {
  width: number;
  height: number;
  /** Length of the newly drawn part, in seconds. */
  seconds: number;
  /** A file holding the prompt as wrapped lines (see wrapPromptText). */
  promptFile: string;
  fontFile: string;
  /** Extension: the parent video, played first and followed by the new part. */
  parentFile?: string;
  /** Where ffmpeg writes the video (MP4, whatever the name) and the JPEG thumbnail, and its `-progress` lines. */
  videoOut: string;
  thumbnailOut: string;
  progressOut: string;
}

/** Font size and wrapping for a frame size: the prompt gets about a fifteenth of the short side. */
export function promptLayout(width: number, height: number): { fontSize: number; maxChars: number; maxLines: number } {
  const fontSize = Math.max(12, Math.round(Math.min(width, height) / 15));
  const usableWidth = width * 0.88 - fontSize; // side margins and the text box's border
  return {
    fontSize,
    maxChars: Math.max(8, Math.floor(usableWidth / (fontSize * 0.6))),
    maxLines: Math.max(1, Math.floor((height * 0.7) / (fontSize * 1.3))),
  };
}

/**
 * ffmpeg's arguments (for spawn, no shell) for one render: a slowly moving colour gradient (a small
 * `geq` field scaled up) at the given size, the prompt centred in a translucent box, and a
 * "Pylon local renderer" label in the corner; H.264 High, yuv420p, 25 fps, `+faststart`, no audio;
 * plus the first new frame as a JPEG. For an extension, the parent is normalised to the same size,
 * rate and format and the new part is concatenated after it. Progress goes to `progressOut`.
 */
export function localRenderArgs(spec: LocalRenderSpec): string[] {
  const { width, height, seconds } = spec;
  const { fontSize } = promptLayout(width, height);
  const labelSize = Math.max(10, Math.round(Math.min(width, height) / 30));
  const font = filterValue(spec.fontFile);
  const fieldW = Math.max(8, Math.round(width / 10));
  const fieldH = Math.max(8, Math.round(height / 10));
  const fieldInput = spec.parentFile ? 1 : 0;

  const picture = [
    `[${fieldInput}:v]format=gbrp`,
    "geq=r='128+100*sin(2*PI*(X/W+T/3))':g='128+100*sin(2*PI*(Y/H+T/4)+2)':b='128+100*sin(2*PI*((X+Y)/(W+H)-T/5)+4)'",
    `scale=${width}:${height}:flags=bicubic`,
    'setsar=1',
    'format=yuv420p',
    `drawtext=fontfile=${font}:textfile=${filterValue(spec.promptFile)}:expansion=none:fontsize=${fontSize}:fontcolor=white` +
      `:line_spacing=${Math.round(fontSize * 0.3)}:box=1:boxcolor=black@0.45:boxborderw=${Math.round(fontSize / 2)}` +
      ':x=(w-text_w)/2:y=(h-text_h)/2',
    `drawtext=fontfile=${font}:text=${filterValue('Pylon local renderer')}:expansion=none:fontsize=${labelSize}` +
      `:fontcolor=white@0.85:box=1:boxcolor=black@0.35:boxborderw=3:x=${labelSize}:y=h-text_h-${labelSize}`,
  ].join(',');

  const graph = spec.parentFile
    ? [
        `[0:v]scale=${width}:${height},setsar=1,fps=${LOCAL_RENDER_FPS},format=yuv420p,setpts=PTS-STARTPTS[parent]`,
        `${picture},split=2[next][thumb]`,
        '[parent][next]concat=n=2:v=1:a=0[video]',
      ].join(';')
    : `${picture},split=2[video][thumb]`;

  return [
    '-hide_banner',
    '-nostdin',
    '-nostats',
    '-loglevel',
    'error',
    '-y',
    '-progress',
    spec.progressOut,
    ...(spec.parentFile ? ['-i', spec.parentFile] : []),
    '-f',
    'lavfi',
    '-i',
    `nullsrc=s=${fieldW}x${fieldH}:r=${LOCAL_RENDER_FPS}:d=${seconds}`,
    '-filter_complex',
    graph,
    '-map',
    '[video]',
    '-an',
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-profile:v',
    'high',
    '-pix_fmt',
    'yuv420p',
    '-movflags',
    '+faststart',
    '-f',
    'mp4',
    spec.videoOut,
    '-map',
    '[thumb]',
    '-frames:v',
    '1',
    '-q:v',
    '3',
    '-update',
    '1',
    '-f',
    'image2',
    spec.thumbnailOut,
  ];
}
