import { spawnSync } from 'node:child_process';
import { path as ffmpegPath } from '@ffmpeg-installer/ffmpeg';

export interface VideoProbe {
  codec: string;
  width: number;
  height: number;
  durationSeconds: number;
}

/** Reads a media file's first video stream with the shipped ffmpeg (`ffmpeg -i`), as a player would. */
export function probeVideo(file: string): VideoProbe {
  const { stderr } = spawnSync(ffmpegPath, ['-hide_banner', '-i', file], { encoding: 'utf8' });
  const stream = /Stream #\d+:\d+[^:]*: Video: (\w+)[^\n]*?, (\d{2,5})x(\d{2,5})/.exec(stderr);
  const duration = /Duration: (\d+):(\d+):(\d+(?:\.\d+)?)/.exec(stderr);
  if (!stream || !duration) throw new Error(`not a playable video: ${stderr.slice(-500)}`);
  return {
    codec: stream[1]!,
    width: Number(stream[2]),
    height: Number(stream[3]),
    durationSeconds: Number(duration[1]) * 3600 + Number(duration[2]) * 60 + Number(duration[3]),
  };
}
