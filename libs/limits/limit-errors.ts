/**
 * An organisation's cap is reached: 409 `limit_exceeded`. `message` says which and how much (it goes
 * to the `Error-Detail` header); `retryAfterSeconds`, when the cap is per time window, says when to retry.
 */
export class LimitExceededError extends Error {
  constructor(
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'LimitExceededError';
  }
}
