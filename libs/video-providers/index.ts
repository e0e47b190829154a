export { ASPECT_RATIOS, isAspectRatio } from './video-provider';
export type { AspectRatio, JobStatus, VideoProvider, VideoRequest, VideoResult } from './video-provider';
export {
  VideoProviderError,
  VideoProviderRejectedError,
  VideoProviderTransientError,
  VideoProviderUnavailableError,
} from './video-provider-errors';
export { LumaVideoProvider, LUMA_DEFAULT_BASE_URL, type LumaVideoProviderOptions } from './luma-video-provider';
export type { LumaResolution, LumaVideoModel } from './luma-api';
export { lumaNominalSize } from './luma-nominal-size';
export { LocalVideoProvider, type LocalVideoProviderOptions } from './local-video-provider';
export { LOCAL_RENDER_SIZES } from './local-render-size';
export { UnavailableVideoProvider } from './unavailable-video-provider';
export { createVideoProvider, type VideoProviderLog, type VideoProviderSettings } from './create-video-provider';
