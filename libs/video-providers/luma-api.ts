/**
 * The parts of the Dream Machine API (https://api.lumalabs.ai/dream-machine/v1, OpenAPI in
 * github.com/lumalabs/lumaai-api) that this provider uses. Only documented fields appear here.
 */

/** Video models the API documents that take a `resolution`; `model` is a required field of a video generation request. */
export type LumaVideoModel = 'ray-2' | 'ray-flash-2';

/** Output resolutions the API documents for ray-2 / ray-flash-2. */
export type LumaResolution = '540p' | '720p' | '1080p' | '4k';

export type LumaKeyframe = { type: 'image'; url: string } | { type: 'generation'; id: string };

/** Body of `POST /generations`. */
export interface LumaGenerationRequest {
  prompt: string;
  model: LumaVideoModel;
  aspect_ratio: string;
  resolution?: LumaResolution;
  loop: boolean;
  keyframes?: { frame0?: LumaKeyframe; frame1?: LumaKeyframe };
}

/** States of a generation, in order. */
export type LumaState = 'queued' | 'dreaming' | 'completed' | 'failed';

/** The Generation object `POST /generations` and `GET /generations/{id}` answer with (fields read here). */
export interface LumaGeneration {
  id: string;
  state: LumaState;
  failure_reason?: string | null;
  assets?: { video?: string | null; image?: string | null; thumbnail?: string | null; progress_video?: string | null } | null;
  request?: { aspect_ratio?: string; resolution?: string } | null;
}

/** Luma's error body (`{ "detail": "..." }`; FastAPI validation errors put a list there). */
export interface LumaErrorBody {
  detail?: unknown;
}
