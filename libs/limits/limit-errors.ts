import { ErrorCode, PylonError } from '@pylon/contracts';

/**
 * An organisation's count cap is reached (webhook endpoints, open event streams): 409 `limit_exceeded`;
 * waiting does not change it. `message` says which and how much (it goes to the `Error-Detail` header).
 */
export class LimitExceededError extends PylonError {
  constructor(message: string) {
    super(ErrorCode.LimitExceeded, message);
    this.name = 'LimitExceededError';
  }
}

/**
 * Waiting will cure it (a per-minute rate, a full backlog): 429 `rate_limited` with `Retry-After`.
 * `message` says which limit and how much (the `Error-Detail` header).
 */
export class RetryLaterError extends PylonError {
  declare readonly retryAfterSeconds: number;

  constructor(message: string, retryAfterSeconds: number) {
    super(ErrorCode.RateLimited, message, { retryAfterSeconds });
    this.name = 'RetryLaterError';
  }
}
