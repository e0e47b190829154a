import { Injectable } from '@nestjs/common';
import type { AttemptOutcome, DeliveryInput, FanoutInput, WebhookActivities } from '@pylon/contracts';
import { PylonConfig } from '@pylon/config';
import { WebhookRepository } from '@pylon/db';
import { RefusedUrlError, assertDeliverableUrl, eventEnvelope, postWebhook, signatureHeaders } from '@pylon/webhooks';

/** Thin adapters between the webhook workflows, the delivery log and the HTTP sender. */
@Injectable()
export class WebhookActivitiesImpl implements WebhookActivities {
  constructor(
    private readonly webhooks: WebhookRepository,
    private readonly config: PylonConfig,
  ) {}

  planDeliveries({ orgId, eventId }: FanoutInput): Promise<string[]> {
    return this.webhooks.planDeliveries(orgId, eventId);
  }

  /** One signed POST; a refused address or a network error is a recorded failed attempt, not an activity failure. */
  async attemptDelivery({ orgId, deliveryId, nextAttemptInMs }: DeliveryInput & { attempt: number; nextAttemptInMs: number | null }): Promise<AttemptOutcome> {
    const context = await this.webhooks.deliveryContext(orgId, deliveryId);
    if (!context) return 'stopped';
    const { endpoint, event } = context;
    if (!endpoint.enabled) {
      await this.webhooks.setDeliveryStatus(deliveryId, 'failed', `endpoint disabled${endpoint.disabledReason ? `: ${endpoint.disabledReason}` : ''}`);
      return 'stopped';
    }
    const startedAt = new Date();
    const body = eventEnvelope(event);
    const secrets = [endpoint.secret];
    if (endpoint.previousSecret && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > startedAt) secrets.push(endpoint.previousSecret);

    let response;
    try {
      const url = await assertDeliverableUrl(endpoint.url, this.config.webhookAllowPrivateUrls);
      response = await postWebhook({
        url,
        headers: signatureHeaders(event.id, startedAt, body, secrets),
        body,
        timeoutMs: this.config.webhookAttemptTimeoutMs,
        allowPrivate: this.config.webhookAllowPrivateUrls,
      });
    } catch (error) {
      if (!(error instanceof RefusedUrlError)) throw error;
      response = { statusCode: null, durationMs: Date.now() - startedAt.getTime(), excerpt: null, error: `refused: ${error.message}` };
    }

    const delivered = response.statusCode !== null && response.statusCode >= 200 && response.statusCode < 300;
    const gone = response.statusCode === 410;
    const outcome: AttemptOutcome = delivered ? 'delivered' : gone ? 'gone' : 'retry';
    await this.webhooks.recordAttempt(deliveryId, {
      startedAt,
      durationMs: response.durationMs,
      statusCode: response.statusCode,
      responseExcerpt: response.excerpt,
      error: response.error,
      status: delivered ? 'delivered' : gone ? 'failed' : 'pending',
      nextAttemptAt: delivered || gone || nextAttemptInMs === null ? null : new Date(Date.now() + nextAttemptInMs),
    });
    if (gone) await this.webhooks.disableEndpoint(endpoint.id, 'the receiver answered 410 Gone');
    return outcome;
  }

  async markDeliveryFailed({ deliveryId, reason }: DeliveryInput & { reason: string }): Promise<void> {
    await this.webhooks.setDeliveryStatus(deliveryId, 'failed', reason);
  }
}
