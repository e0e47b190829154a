import type { VideoRequest } from './video-provider';
import { isAspectRatio } from './video-provider';
import { VideoProviderRejectedError } from './video-provider-errors';
import type { LumaGenerationRequest, LumaKeyframe, LumaResolution, LumaVideoModel } from './luma-api';

/**
 * The `POST /generations` body for a request:
 * - start image → `keyframes.frame0 = { type: 'image', url }`, end image → `frame1`;
 * - extension → `frame0 = { type: 'generation', id: <parent's Luma id> }` (an end image may still be frame1),
 *   so an extension cannot also have a start image;
 * - `loop` is always false; `model` (required by the API) and `resolution` come from the provider's options;
 * - `expandPrompt` is not sent: the current Dream Machine API has no prompt-expansion field
 *   (v1alpha's `enhance_prompt` is gone), so the prompt is used as written.
 */
export function lumaRequestBody(request: VideoRequest, settings: { model: LumaVideoModel; resolution: LumaResolution }): LumaGenerationRequest {
  if (!isAspectRatio(request.aspectRatio)) {
    throw new VideoProviderRejectedError(`aspect ratio ${JSON.stringify(request.aspectRatio)} is not supported`);
  }
  const keyframes: { frame0?: LumaKeyframe; frame1?: LumaKeyframe } = {};
  if (request.extend) {
    if (request.imageUrl) {
      throw new VideoProviderRejectedError('an extension continues its parent video, so it cannot also have a start image');
    }
    if (!request.extend.providerJobId) throw new VideoProviderRejectedError("an extension needs the parent's Luma generation id");
    keyframes.frame0 = { type: 'generation', id: request.extend.providerJobId };
  } else if (request.imageUrl) {
    keyframes.frame0 = { type: 'image', url: request.imageUrl };
  }
  if (request.imageEndUrl) keyframes.frame1 = { type: 'image', url: request.imageEndUrl };

  const body: LumaGenerationRequest = {
    prompt: request.prompt,
    model: settings.model,
    aspect_ratio: request.aspectRatio,
    resolution: settings.resolution,
    loop: false,
  };
  if (keyframes.frame0 || keyframes.frame1) body.keyframes = keyframes;
  return body;
}
