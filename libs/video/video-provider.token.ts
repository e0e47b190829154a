/** The injection token for the configured video backend (VideoBackend: a provider of jobs, or a renderer in the worker). */
export const VIDEO_BACKEND = Symbol('VideoBackend');
