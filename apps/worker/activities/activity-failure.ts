import { ApplicationFailure } from '@temporalio/activity';
import type { ActivityExecuteInput, ActivityInboundCallsInterceptor, ActivityInterceptorsFactory, Next } from '@temporalio/worker';
import {
  EXTRACTION_FAILURE,
  ErrorCode,
  NON_RETRYABLE_LLM_ERROR,
  PylonError,
  RUN_ALREADY_FINISHED_ERROR,
  RUN_NOT_FOUND_ERROR,
} from '@pylon/contracts';
import { OutputMismatchError, RunAlreadyFinishedError, RunCannotPayError, RunNotFoundError } from '@pylon/agent-runs';
import { EmbeddingRejectedError, EmbeddingUnavailableError } from '@pylon/embeddings';
import { ExtractionFailure } from '@pylon/knowledge';
import { LlmRequestRejectedError, LlmUnavailableError } from '@pylon/llm';
import { GenerationNotFoundError } from '@pylon/video';
import { VideoProviderRejectedError, VideoProviderUnavailableError } from '@pylon/video-providers';

/**
 * The one place a domain error becomes a Temporal failure. Those retrying cannot cure are non-retryable,
 * with the failure types the workflows know; any other PylonError keeps its code as the failure type, so a
 * workflow's retry policy decides (e.g. the schedule firing's refusals); everything else passes unchanged.
 */
export function activityFailureOf(error: unknown): unknown {
  if (error instanceof RunNotFoundError) return ApplicationFailure.nonRetryable(error.message, RUN_NOT_FOUND_ERROR);
  if (error instanceof RunAlreadyFinishedError) return ApplicationFailure.nonRetryable(error.message, RUN_ALREADY_FINISHED_ERROR);
  if (error instanceof LlmRequestRejectedError) return ApplicationFailure.nonRetryable(error.message, NON_RETRYABLE_LLM_ERROR);
  // Retried by the turn's policy, but not before the provider's Retry-After.
  if (error instanceof LlmUnavailableError && error.retryAfterMs !== undefined)
    return ApplicationFailure.create({ message: error.message, type: error.name, nextRetryDelay: error.retryAfterMs });
  // The run's error is the message: `insufficient_tokens`, or `output did not match the schema: …`.
  if (error instanceof RunCannotPayError) return ApplicationFailure.nonRetryable(ErrorCode.InsufficientTokens, error.name);
  if (error instanceof OutputMismatchError) return ApplicationFailure.nonRetryable(error.message, error.name);
  if (error instanceof GenerationNotFoundError) return ApplicationFailure.nonRetryable(error.message, 'GenerationNotFound');
  if (error instanceof VideoProviderRejectedError) return ApplicationFailure.nonRetryable(error.message, 'VideoProviderRejected');
  if (error instanceof VideoProviderUnavailableError) return ApplicationFailure.nonRetryable(error.message, 'VideoProviderUnavailable');
  if (error instanceof EmbeddingUnavailableError) return ApplicationFailure.nonRetryable(error.message, 'EmbeddingUnavailable');
  if (error instanceof EmbeddingRejectedError) return ApplicationFailure.nonRetryable(error.message, 'EmbeddingRejected');
  if (error instanceof ExtractionFailure) return ApplicationFailure.nonRetryable(error.message, EXTRACTION_FAILURE);
  if (error instanceof PylonError) return ApplicationFailure.create({ message: error.message, type: error.code, cause: error });
  return error;
}

class DomainFailures implements ActivityInboundCallsInterceptor {
  async execute(input: ActivityExecuteInput, next: Next<ActivityInboundCallsInterceptor, 'execute'>): Promise<unknown> {
    try {
      return await next(input);
    } catch (error) {
      throw activityFailureOf(error);
    }
  }
}

/** For the Worker's `interceptors.activity`: every activity's domain errors, through activityFailureOf. */
export const domainFailureInterceptors: ActivityInterceptorsFactory = () => ({ inbound: new DomainFailures() });
