/**
 * Settings (environment variables, read by @pylon/config and passed in as VideoProviderSettings):
 *
 * - VIDEO_PROVIDER        `local` (default): renders a labelled placeholder MP4 with the bundled ffmpeg, offline.
 *                         `luma`: Luma's Dream Machine API (https://api.lumalabs.ai/dream-machine/v1).
 * - LUMA_API_KEY          Bearer key for `luma`. Without it `luma` still starts, but every call throws
 *                         VideoProviderUnavailableError saying the key is missing.
 * - LUMA_BASE_URL         Overrides the Dream Machine base URL (a proxy, or a fake in tests).
 * - MEDIA_DIR             Where `local` keeps videos/, thumbnails/ and renders/ (work under way); default
 *                         `<DATA_DIR>/media`. The API serves videos/ and thumbnails/ under /media.
 * - LOCAL_RENDER_SECONDS  Length of a `local` clip (or of an extension's new part); default 3.
 * - VIDEO_PROVIDER_TIMEOUT_MS  Bound on each Luma HTTP call (`timeoutMs`).
 */
import { LocalVideoRenderer } from './local-video-renderer';
import { LumaVideoProvider } from './luma-video-provider';
import { UnavailableVideoProvider } from './unavailable-video-provider';
import type { VideoBackend } from './video-provider';

export interface VideoProviderSettings {
  provider: 'local' | 'luma';
  lumaApiKey?: string;
  lumaBaseUrl?: string;
  /** Absolute. */
  mediaDir: string;
  localRenderSeconds: number;
  timeoutMs: number;
}

/** Receives one line for each notable start-up decision (e.g. Luma has no key). */
export type VideoProviderLog = (message: string) => void;

/** The provider VIDEO_PROVIDER names; `luma` without LUMA_API_KEY gives one whose calls throw VideoProviderUnavailableError. */
export function createVideoProvider(settings: VideoProviderSettings, log?: VideoProviderLog): VideoBackend {
  switch (settings.provider) {
    case 'local':
      return new LocalVideoRenderer({ mediaDir: settings.mediaDir, renderSeconds: settings.localRenderSeconds });
    case 'luma': {
      if (!settings.lumaApiKey) {
        const reason = 'LUMA_API_KEY is not set, so VIDEO_PROVIDER=luma cannot generate videos; set LUMA_API_KEY or use VIDEO_PROVIDER=local';
        log?.(`video provider unavailable: ${reason}`);
        return new UnavailableVideoProvider('luma', reason);
      }
      return new LumaVideoProvider({ apiKey: settings.lumaApiKey, baseUrl: settings.lumaBaseUrl, timeoutMs: settings.timeoutMs });
    }
    default: {
      const unknown: never = settings.provider;
      throw new Error(`unknown VIDEO_PROVIDER ${String(unknown)}`);
    }
  }
}
