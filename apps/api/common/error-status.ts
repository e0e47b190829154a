import { ErrorCode } from '@pylon/contracts';

/**
 * The HTTP status of every error code, in one exhaustive switch: the one map from what went wrong
 * (a PylonError's code) to the HTTP answer. A code added without a status does not compile.
 */
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
    case ErrorCode.MethodNotAllowed:
      return 405;
    case ErrorCode.RequestTimeout:
      return 408;
    case ErrorCode.IdempotencyKeyReused:
    case ErrorCode.RunNotCancellable:
    case ErrorCode.RunNotWaiting:
    case ErrorCode.ConversationBusy:
    case ErrorCode.GenerationNotCompleted:
    case ErrorCode.GenerationNotCancellable:
    case ErrorCode.LimitExceeded:
    case ErrorCode.EndpointDisabled:
    case ErrorCode.KnowledgeBaseNameTaken:
    case ErrorCode.KnowledgeBaseNotEmpty:
      return 409;
    case ErrorCode.PayloadTooLarge:
      return 413;
    case ErrorCode.UriTooLong:
      return 414;
    case ErrorCode.UnsupportedMediaType:
      return 415;
    case ErrorCode.ExpectationFailed:
      return 417;
    case ErrorCode.RateLimited:
      return 429;
    case ErrorCode.HeaderFieldsTooLarge:
      return 431;
    case ErrorCode.OrchestratorUnavailable:
    case ErrorCode.EmbeddingUnavailable:
    case ErrorCode.VideoProviderUnavailable:
    case ErrorCode.InternalError:
      return 500;
    case ErrorCode.ServiceUnavailable:
    case ErrorCode.DatabaseUnavailable:
      return 503;
    default:
      return unmapped(code);
  }
}

function unmapped(code: never): never {
  throw new Error(`error code ${String(code)} has no HTTP status`);
}

/** The whole body of every error response. */
export function errorBodyOf(code: ErrorCode): string {
  return JSON.stringify({ error: code });
}

/** Client errors the framework signals by status alone that have a code of their own; any other 4xx is `invalid_request`. */
const CODE_OF_CLIENT_STATUS: Readonly<Record<number, ErrorCode>> = {
  404: ErrorCode.NotFound,
  405: ErrorCode.MethodNotAllowed,
  408: ErrorCode.RequestTimeout,
  413: ErrorCode.PayloadTooLarge,
  414: ErrorCode.UriTooLong,
  415: ErrorCode.UnsupportedMediaType,
  417: ErrorCode.ExpectationFailed,
  431: ErrorCode.HeaderFieldsTooLarge,
};

/**
 * Errors raised by Fastify itself before a route handler runs (body too large, unsupported media type,
 * malformed URL, over-long route parameter), and Nest's HTTP exceptions.
 */
export function codeOfFastifyError(fastifyCode: string | undefined, statusCode: number | undefined): ErrorCode | undefined {
  if (statusCode !== undefined && CODE_OF_CLIENT_STATUS[statusCode]) return CODE_OF_CLIENT_STATUS[statusCode];
  if (fastifyCode?.startsWith('FST_ERR_CTP_') || fastifyCode === 'FST_ERR_VALIDATION') return ErrorCode.InvalidRequest;
  if (statusCode !== undefined && statusCode >= 400 && statusCode < 500) return ErrorCode.InvalidRequest;
  return undefined;
}
