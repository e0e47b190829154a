import type { WebhookAttemptResult } from '@pylon/metrics';
import type { WebhookResponse } from './sender';

/** What an attempt came to: a 2xx delivers, a 410 is gone, any other answer is retried; without an answer, refused or an error. */
export function attemptResult(response: Pick<WebhookResponse, 'statusCode' | 'refused'>): WebhookAttemptResult {
  if (response.statusCode !== null) {
    if (response.statusCode >= 200 && response.statusCode < 300) return 'delivered';
    return response.statusCode === 410 ? 'gone' : 'retry';
  }
  return response.refused ? 'refused' : 'error';
}
