export const VIDEO_STATES = ['pending', 'processing', 'completed', 'failed'] as const;
export type VideoState = (typeof VIDEO_STATES)[number];

export const VIDEO_ASPECT_RATIOS = ['1:1', '3:4', '4:3', '9:16', '16:9', '9:21', '21:9'] as const;
export type VideoAspectRatio = (typeof VIDEO_ASPECT_RATIOS)[number];
export const DEFAULT_ASPECT_RATIO: VideoAspectRatio = '16:9';

export interface VideoWorkflowInput {
  generationId: string;
  orgId: string;
}

export interface VideoSubmission {
  /** How long the whole generation may take before it is failed and refunded. */
  timeoutSeconds: number;
  /** The video is made in the worker by renderVideo (the offline renderer), not polled from a provider's job. */
  renders?: boolean;
}

export type VideoPollResult =
  { state: 'pending' | 'processing' } | { state: 'completed'; eventId: string | null } | { state: 'failed'; reason: string };

/** Activities of the video workflow. Workflows import this interface as a type only. */
export interface VideoActivities {
  /** Sends the generation to its provider and records the provider's job; idempotent. */
  submitVideo(input: VideoWorkflowInput): Promise<VideoSubmission>;
  /** Asks the provider how the job is doing and updates the projection; on completion stores the video. */
  pollVideo(input: VideoWorkflowInput): Promise<VideoPollResult>;
  /** Renders the video in the worker, heartbeating with its progress; a cancel kills the render. Stores it when done. */
  renderVideo(input: VideoWorkflowInput): Promise<VideoPollResult>;
  /** Marks the generation failed and refunds its tokens, exactly once; the event id, or null if already final. */
  failVideo(input: VideoWorkflowInput & { reason: string }): Promise<string | null>;
  /** Stops the provider's job (kills the render, deletes the remote job); nothing to do if it was never submitted. */
  cancelVideo(input: VideoWorkflowInput): Promise<void>;
}

/** The failure reason of a generation cancelled through the API. */
export const VIDEO_CANCELLED_REASON = 'cancelled';

export const NON_RETRYABLE_VIDEO_ERRORS = ['VideoProviderRejected', 'VideoProviderUnavailable', 'GenerationNotFound'] as const;
