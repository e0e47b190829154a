import { ErrorCode } from '@pylon/contracts';

/** The HTTP status of every error code, in one exhaustive switch. */
export function statusOf(code: ErrorCode): number {
  switch (code) {
    case ErrorCode.InvalidRequest:
      return 400;
    case ErrorCode.InsufficientTokens:
      return 402;
    case ErrorCode.MissingApiKey:
    case ErrorCode.InvalidApiKey:
      return 401;
    case ErrorCode.InsufficientScope:
      return 403;
    case ErrorCode.NotFound:
      return 404;
    case ErrorCode.IdempotencyKeyReused:
    case ErrorCode.RunNotCancellable:
    case ErrorCode.GenerationNotCompleted:
    case ErrorCode.GenerationNotCancellable:
    case ErrorCode.LimitExceeded:
      return 409;
    case ErrorCode.PayloadTooLarge:
      return 413;
    case ErrorCode.RateLimited:
      return 429;
    case ErrorCode.OrchestratorUnavailable:
    case ErrorCode.EmbeddingUnavailable:
    case ErrorCode.VideoProviderUnavailable:
    case ErrorCode.InternalError:
      return 500;
  }
}

/** Errors raised by Fastify itself before a route handler runs. */
export function codeOfFastifyError(fastifyCode: string | undefined, statusCode: number | undefined): ErrorCode | undefined {
  if (fastifyCode === 'FST_ERR_CTP_BODY_TOO_LARGE' || statusCode === 413) return ErrorCode.PayloadTooLarge;
  if (fastifyCode?.startsWith('FST_ERR_CTP_') || fastifyCode === 'FST_ERR_VALIDATION') return ErrorCode.InvalidRequest;
  if (statusCode === 404) return ErrorCode.NotFound;
  if (statusCode !== undefined && statusCode >= 400 && statusCode < 500) return ErrorCode.InvalidRequest;
  return undefined;
}
