import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import {
  DELIVERY_SCHEDULE_MS,
  RETRY_SIGNAL,
  WORKFLOW_TYPES,
  webhookWorkflowId,
  webhookWorkflowSummary,
  type AttemptOutcome,
  type WebhookEventInput,
} from '@pylon/contracts';
import { PylonConfig } from '@pylon/config';
import { WebhookDeliveryRepository } from './repositories/webhook-delivery.repository';
import { WebhookEndpointRepository } from './repositories/webhook-endpoint.repository';
import type { PylonEvent, WebhookEndpoint } from '@pylon/db';
import { PylonMetrics } from '@pylon/metrics';
import { WorkflowStarter } from '@pylon/temporal';
import { PrivateTargets, RefusedUrlError, resolveDeliverableUrl } from './address-guard';
import { AttemptRecorder } from './attempt-recorder';
import { attemptResult } from './attempt-result';
import { WebhookConnectionPool } from './connection-pool';
import { attemptHeaders, webhookRequest, type WebhookRequest } from './envelope';
import { postWebhook, type WebhookResponse } from './sender';

/** One attempt to make: which delivery, where to, what. */
interface AttemptPlan {
  deliveryId: string;
  endpoint: WebhookEndpoint;
  /** What the event's deliveries POST, serialised once for all of them. */
  request: WebhookRequest;
  /** When the next attempt will be, if this one fails; null after the last. */
  nextAttemptInMs: number | null;
}

/**
 * The rules of webhook delivery: what an attempt is (SSRF check, Standard Webhooks signature with every
 * live secret, one POST), what its answer means (2xx delivered, 410 disables the endpoint, anything
 * else is retried), that every attempt is recorded, and how much an endpoint may have in flight.
 */
@Injectable()
export class WebhookDeliveryService implements OnModuleDestroy {
  /** Keep-alive connections per receiver (origin and pinned addresses), bounded. */
  private readonly connections = new WebhookConnectionPool();

  private readonly recorder = new AttemptRecorder((attempts) => this.deliveries.recordAttempts(attempts));

  /** The private receivers the operator allows (WEBHOOK_ALLOWED_PRIVATE_TARGETS), read once. */
  private readonly privateTargets: PrivateTargets;

  constructor(
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly endpoints: WebhookEndpointRepository,
    private readonly config: PylonConfig,
    private readonly metrics: PylonMetrics,
    private readonly workflows: WorkflowStarter,
  ) {
    this.privateTargets = PrivateTargets.parse(config.webhookAllowedPrivateTargets);
  }

  onModuleDestroy(): void {
    this.connections.close();
  }

  /**
   * The first attempts of the event (see attemptEvent), in the workflow that recorded it; the deliveries that
   * still need the retry schedule enter it together: their event's webhook workflow. Returns them.
   */
  async deliverEvent(orgId: string, eventId: string): Promise<string[]> {
    const retrying = await this.attemptEvent(orgId, eventId);
    if (retrying.length > 0) await this.scheduleRetries(orgId, eventId, retrying);
    return retrying;
  }

  /**
   * The first attempt of each of the event's deliveries that has none yet, all at once. Returns the
   * deliveries that need the retry schedule: this time's failures and any earlier ones.
   */
  async attemptEvent(orgId: string, eventId: string): Promise<string[]> {
    const nextAttemptInMs = DELIVERY_SCHEDULE_MS[1];
    const pending = await this.deliveries.pendingDeliveriesOfEvent(orgId, eventId, this.config.webhookMaxInflightPerEndpoint);
    if (!pending) return [];
    const request = webhookRequest(pending.event);
    const outcomes = await Promise.all(
      pending.unattempted.map(async ({ deliveryId, endpoint }) => ({
        deliveryId,
        outcome: await this.attempt({ deliveryId, endpoint, request, nextAttemptInMs }),
      })),
    );
    return [...pending.retrying, ...outcomes.filter(({ outcome }) => outcome === 'retry').map(({ deliveryId }) => deliveryId)];
  }

  /**
   * The event's webhook workflow, held by Temporal until the first retry is due, so it costs nothing while it
   * waits (once per event: a repeated call finds it started, with these deliveries). When it is running
   * already, started by a replay, the deliveries join it by a signal.
   */
  private async scheduleRetries(orgId: string, eventId: string, deliveryIds: string[]): Promise<void> {
    const workflowId = webhookWorkflowId(eventId);
    for (let tries = 0; tries < 3; tries++) {
      const started = await this.workflows.tryStart({
        workflowType: WORKFLOW_TYPES.webhook,
        workflowId,
        args: [{ orgId, eventId, retrying: deliveryIds } satisfies WebhookEventInput],
        orgId,
        resourceId: eventId,
        summary: webhookWorkflowSummary(eventId),
        rerunWhenClosed: true,
        startDelayMs: DELIVERY_SCHEDULE_MS[1],
      });
      // Running already: the signal adds them to its schedule (a no-op when they are on it); closed meanwhile: start again.
      if (started || (await this.workflows.signal(workflowId, RETRY_SIGNAL, deliveryIds))) return;
    }
    throw new Error(`could not start or signal ${workflowId}`);
  }

  /**
   * The next attempt of each of these deliveries that is still pending (a replay may have settled one
   * meanwhile), all at once. Returns the ones to retry again.
   */
  async retryDeliveries(orgId: string, deliveryIds: string[], nextAttemptInMs: number | null): Promise<string[]> {
    const contexts = await this.deliveries.pendingDeliveryContexts(orgId, deliveryIds);
    const requests = new Map<string, WebhookRequest>();
    const requestOf = (event: PylonEvent) => requests.get(event.id) ?? requests.set(event.id, webhookRequest(event)).get(event.id)!;
    const outcomes = await Promise.all(
      contexts.map(async ({ delivery, endpoint, event }) => ({
        deliveryId: delivery.id,
        outcome: await this.attempt({ deliveryId: delivery.id, endpoint, request: requestOf(event), nextAttemptInMs }),
      })),
    );
    return outcomes.filter(({ outcome }) => outcome === 'retry').map(({ deliveryId }) => deliveryId);
  }

  async markDeliveriesFailed(orgId: string, deliveryIds: string[], reason: string): Promise<void> {
    await this.deliveries.failPendingDeliveries(orgId, deliveryIds, reason);
  }

  /** One attempt of a single delivery, whatever its status (a replay). */
  async attemptDelivery(orgId: string, deliveryId: string, nextAttemptInMs: number | null): Promise<AttemptOutcome> {
    const context = await this.deliveries.deliveryContext(orgId, deliveryId);
    if (!context) return 'stopped';
    return this.attempt({ deliveryId, endpoint: context.endpoint, request: webhookRequest(context.event), nextAttemptInMs });
  }

  /**
   * One signed POST; a refused address or a network error is a recorded failed attempt, not an error.
   * Counted in `pylon_webhook_delivery_attempts_total` by result once recorded.
   */
  private async attempt({ deliveryId, endpoint, request, nextAttemptInMs }: AttemptPlan): Promise<AttemptOutcome> {
    if (!endpoint.enabled) {
      await this.deliveries.setDeliveryStatus(
        endpoint.orgId,
        deliveryId,
        'failed',
        `endpoint disabled${endpoint.disabledReason ? `: ${endpoint.disabledReason}` : ''}`,
      );
      return 'stopped';
    }
    const startedAt = new Date();
    const { response, requestHeaders } = await this.post(endpoint, request, startedAt);
    const result = attemptResult(response);
    const delivered = result === 'delivered';
    const gone = result === 'gone';
    await this.recorder.record(endpoint.orgId, deliveryId, {
      startedAt,
      durationMs: response.durationMs,
      statusCode: response.statusCode,
      responseExcerpt: response.excerpt,
      error: response.error,
      requestHeaders,
      responseHeaders: response.headers,
      status: delivered ? 'delivered' : gone ? 'failed' : 'pending',
      nextAttemptAt: delivered || gone || nextAttemptInMs === null ? null : new Date(Date.now() + nextAttemptInMs),
    });
    this.metrics.countWebhookAttempt(result);
    if (gone) await this.endpoints.disableEndpoint(endpoint.orgId, endpoint.id, 'the receiver answered 410 Gone');
    return delivered ? 'delivered' : gone ? 'gone' : 'retry';
  }

  /** The POST, and the headers it sent (null when the address check refused it before any request). */
  private async post(
    endpoint: WebhookEndpoint,
    request: WebhookRequest,
    startedAt: Date,
  ): Promise<{ response: WebhookResponse; requestHeaders: Record<string, string> | null }> {
    const secrets = [endpoint.secret];
    if (endpoint.previousSecret && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > startedAt)
      secrets.push(endpoint.previousSecret);
    const headers = attemptHeaders(request, startedAt, secrets);
    try {
      const { url, addresses } = await resolveDeliverableUrl(endpoint.url, this.privateTargets);
      const response = await postWebhook({
        url,
        headers,
        body: request.body,
        timeoutMs: this.config.webhookAttemptTimeoutMs,
        privateTargets: this.privateTargets,
        addresses,
        connections: this.connections,
      });
      return { response, requestHeaders: response.refused ? null : headers };
    } catch (error) {
      if (!(error instanceof RefusedUrlError)) throw error;
      return {
        response: {
          statusCode: null,
          durationMs: Date.now() - startedAt.getTime(),
          excerpt: null,
          headers: null,
          error: `refused: ${error.message}`,
          refused: true,
        },
        requestHeaders: null,
      };
    }
  }
}
