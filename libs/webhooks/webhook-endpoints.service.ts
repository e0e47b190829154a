import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  PylonError,
  ATTEMPT_NOW_SIGNAL,
  ErrorCode,
  RECOVER_MAX_AGE_DAYS,
  RECOVER_MAX_DELIVERIES,
  WEBHOOK_TEST_EVENT,
  WORKFLOW_TYPES,
  webhookWorkflowId,
  webhookWorkflowSummary,
  type WebhookEventInput,
} from '@pylon/contracts';
import { PylonConfig } from '@pylon/config';
import { PylonEvent, WebhookAttempt, WebhookDelivery, WebhookEndpoint, type Page, type PageRequest } from '@pylon/db';
import { WebhookDeliveryRepository, type DeliveryFilter } from './repositories/webhook-delivery.repository';
import { WebhookEndpointRepository, type EndpointChanges } from './repositories/webhook-endpoint.repository';
import { createOnce, fingerprint } from '@pylon/idempotency';
import { LimitsService } from '@pylon/limits';
import { EventAnnouncer, WorkflowStarter } from '@pylon/temporal';
import { OrganizationsService } from '@pylon/organizations';
import { PrivateTargets, RefusedUrlError, assertDeliverableUrl } from './address-guard';
import { webhookRequest, type WebhookRequest } from './envelope';
import { generateWebhookSecret } from './webhook-secret';

/** What a new endpoint is asked for. */
export interface NewEndpointRequest {
  url: string;
  description?: string | null;
  events?: string[] | null;
}

/** Deliveries with their attempts and what each POSTs (by event id), as the delivery log shows them. */
export interface DeliveriesWithAttempts {
  deliveries: Page<WebhookDelivery>;
  attempts: WebhookAttempt[];
  requests: Map<string, WebhookRequest>;
}

/** One delivery with its attempts and what it POSTs (null if its event is gone). */
export interface DeliveryWithAttempts {
  delivery: WebhookDelivery;
  attempts: WebhookAttempt[];
  request: WebhookRequest | null;
}

/** What a bulk recovery re-sent, oldest first, and whether more failed deliveries remain past its bound. */
export interface Recovery {
  deliveryIds: string[];
  more: boolean;
}

/** A client's clock may run a little ahead of ours: a `since` up to this far in the future is taken as now. */
const SINCE_CLOCK_SKEW_MS = 60_000;
/** How many replays a bulk recovery starts at once. */
const RECOVER_CONCURRENCY = 16;

/** The reason an endpoint disabled by an operator shows when the operator gave none. */
export const OPERATOR_DISABLED_REASON = 'disabled by an operator';

/** Webhook endpoints of an organisation, their secrets, their delivery logs, and replays of their deliveries (for the API). */
@Injectable()
export class WebhookEndpointsService {
  /** The private receivers the operator allows (WEBHOOK_ALLOWED_PRIVATE_TARGETS), read once. */
  private readonly privateTargets: PrivateTargets;

  constructor(
    private readonly endpoints: WebhookEndpointRepository,
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly orgs: OrganizationsService,
    private readonly workflows: WorkflowStarter,
    private readonly events: EventAnnouncer,
    private readonly config: PylonConfig,
    private readonly limits: LimitsService,
  ) {
    this.privateTargets = PrivateTargets.parse(config.webhookAllowedPrivateTargets);
  }

  /**
   * A new endpoint, within the organisation's cap on endpoints (409 `limit_exceeded` past it). An
   * Idempotency-Key makes it safe to retry: the same key and request answer the endpoint it made, secret included.
   */
  create(orgId: string, request: NewEndpointRequest, idempotencyKey: string | null): Promise<WebhookEndpoint> {
    const requestHash = fingerprint({ url: request.url, description: request.description ?? '', events: JSON.stringify(request.events ?? null) });
    return createOnce<WebhookEndpoint>(idempotencyKey, requestHash, {
      findByKey: (key) => this.endpoints.findEndpointByIdempotencyKey(orgId, key),
      admit: () => this.checkUrl(request.url),
      insert: () =>
        this.limits.withinWebhookEndpointCap(orgId, (cap) =>
          this.endpoints.createEndpoint(
            {
              id: randomUUID(),
              orgId,
              url: request.url,
              description: request.description ?? null,
              events: request.events ?? null,
              enabled: true,
              secret: generateWebhookSecret(),
              createdAt: new Date(),
              idempotencyKey,
              requestHash,
            },
            cap,
          ),
        ),
    });
  }

  list(orgId: string, page: PageRequest): Promise<Page<WebhookEndpoint>> {
    return this.endpoints.listEndpoints(orgId, page);
  }

  async get(orgId: string, endpointId: string): Promise<WebhookEndpoint> {
    const endpoint = await this.endpoints.findEndpoint(orgId, endpointId);
    if (!endpoint) throw PylonError.notFound('no such webhook endpoint');
    return endpoint;
  }

  async update(orgId: string, endpointId: string, request: EndpointChanges): Promise<WebhookEndpoint> {
    await this.get(orgId, endpointId);
    if (request.url !== undefined) await this.checkUrl(request.url);
    return (await this.endpoints.updateEndpoint(orgId, endpointId, request))!;
  }

  async delete(orgId: string, endpointId: string): Promise<void> {
    if (!(await this.endpoints.deleteEndpoint(orgId, endpointId))) throw PylonError.notFound('no such webhook endpoint');
  }

  async rotateSecret(orgId: string, endpointId: string, graceSeconds = this.config.webhookSecretGraceSeconds): Promise<WebhookEndpoint> {
    await this.get(orgId, endpointId);
    return (await this.endpoints.rotateSecret(orgId, endpointId, generateWebhookSecret(), new Date(Date.now() + graceSeconds * 1000)))!;
  }

  /**
   * An operator stops every delivery to an organisation at once: all its enabled endpoints are
   * disabled with the reason; deliveries then due to them fail with it. Returns how many it disabled.
   */
  async disableAllOfOrg(orgId: string, reason: string | undefined): Promise<number> {
    await this.orgs.require(orgId);
    return this.endpoints.disableAllEndpoints(orgId, reason ?? OPERATOR_DISABLED_REASON);
  }

  /**
   * An endpoint's delivery log, newest first, narrowed by the filter (status, event type, event id: the
   * event id is also the message id, the `webhook-id` header), each delivery with its attempts and request.
   */
  async listDeliveries(orgId: string, endpointId: string, filter: DeliveryFilter, page: PageRequest): Promise<DeliveriesWithAttempts> {
    await this.get(orgId, endpointId);
    const deliveries = await this.deliveries.listDeliveries(orgId, endpointId, filter, page);
    const [attempts, events] = await Promise.all([
      this.deliveries.listAttempts(
        orgId,
        deliveries.items.map((delivery) => delivery.id),
      ),
      this.deliveries.findEvents(
        orgId,
        deliveries.items.map((delivery) => delivery.eventId),
      ),
    ]);
    return { deliveries, attempts, requests: requestsOf(events) };
  }

  /** One delivery of the endpoint, with its attempts and request. */
  async getDelivery(orgId: string, endpointId: string, deliveryId: string): Promise<DeliveryWithAttempts> {
    const delivery = await this.deliveries.findDelivery(orgId, deliveryId);
    if (!delivery || delivery.endpointId !== endpointId) throw PylonError.notFound('no such delivery');
    const [attempts, events] = await Promise.all([
      this.deliveries.listAttempts(orgId, [delivery.id]),
      this.deliveries.findEvents(orgId, [delivery.eventId]),
    ]);
    return { delivery, attempts, request: requestsOf(events).get(delivery.eventId) ?? null };
  }

  /** What this delivery POSTs (for the answers of a test event or a replay). */
  async requestOf(orgId: string, delivery: WebhookDelivery): Promise<WebhookRequest | null> {
    return requestsOf(await this.deliveries.findEvents(orgId, [delivery.eventId])).get(delivery.eventId) ?? null;
  }

  /**
   * Bulk recovery: re-sends now every failed delivery of the endpoint created at or after `since` (which
   * may be at most RECOVER_MAX_AGE_DAYS back, and not in the future), oldest first, at most
   * RECOVER_MAX_DELIVERIES per call, each as a replay does (its event's webhook workflow, one attempt, fair
   * by organisation). They are pending from now until their attempt is recorded, so a second call goes on with
   * the ones this left. A disabled endpoint is refused (409 `endpoint_disabled`): enable it first.
   */
  async recoverFailed(orgId: string, endpointId: string, since: Date): Promise<Recovery> {
    const now = Date.now();
    if (since.getTime() > now + SINCE_CLOCK_SKEW_MS) throw PylonError.invalidRequest('since must not be in the future');
    if (since.getTime() < now - RECOVER_MAX_AGE_DAYS * 86_400_000)
      throw PylonError.invalidRequest(`since must be within the last ${RECOVER_MAX_AGE_DAYS} days`);
    const endpoint = await this.get(orgId, endpointId);
    if (!endpoint.enabled)
      throw new PylonError(
        ErrorCode.EndpointDisabled,
        'the endpoint is disabled; enable it (PATCH with enabled: true) before recovering its deliveries',
      );
    const { reopened, more } = await this.deliveries.reopenFailedDeliveries(orgId, endpointId, since, RECOVER_MAX_DELIVERIES);
    const started = new Set<string>();
    let failure: { error: unknown } | undefined;
    let next = 0;
    const startReplays = async () => {
      while (!failure && next < reopened.length) {
        const { deliveryId, eventId } = reopened[next++]!;
        try {
          await this.deliverNow(orgId, eventId, deliveryId);
          started.add(deliveryId);
        } catch (error) {
          failure ??= { error };
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(RECOVER_CONCURRENCY, reopened.length) }, startReplays));
    const deliveryIds = reopened.map(({ deliveryId }) => deliveryId);
    if (failure) {
      // Those not on their way are failed again, as they were, so that a later recovery picks them up.
      await this.deliveries.refailDeliveries(
        orgId,
        deliveryIds.filter((deliveryId) => !started.has(deliveryId)),
      );
      throw failure.error;
    }
    return { deliveryIds, more };
  }

  /** A test event to this endpoint only, delivered like any other (by its webhook workflow), within the organisation's test events per minute. */
  async sendTestEvent(orgId: string, endpointId: string): Promise<WebhookDelivery> {
    await this.get(orgId, endpointId);
    await this.limits.admitTestEvent(orgId);
    const { event, delivery } = await this.deliveries.recordTestDelivery(orgId, endpointId, {
      type: WEBHOOK_TEST_EVENT as PylonEvent['type'],
      data: { endpoint_id: endpointId, message: 'This is a test event from Pylon.' },
    });
    await this.events.announce(orgId, event.id);
    return delivery;
  }

  /** Re-sends a delivery now: one attempt, by its event's webhook workflow (started again if it has finished). */
  async retry(orgId: string, endpointId: string, deliveryId: string): Promise<WebhookDelivery> {
    const delivery = await this.deliveries.findDelivery(orgId, deliveryId);
    if (!delivery || delivery.endpointId !== endpointId) throw PylonError.notFound('no such delivery');
    await this.deliverNow(orgId, delivery.eventId, deliveryId);
    return delivery;
  }

  /**
   * A replay: the event's webhook workflow attempts the delivery at once, once; a workflow that has closed
   * runs again with nothing scheduled, so a failed replay of a delivery off the schedule leaves it failed.
   */
  private async deliverNow(orgId: string, eventId: string, deliveryId: string): Promise<void> {
    await this.workflows.signalWithStart({
      workflowType: WORKFLOW_TYPES.webhook,
      workflowId: webhookWorkflowId(eventId),
      args: [{ orgId, eventId, retrying: [] } satisfies WebhookEventInput],
      orgId,
      resourceId: eventId,
      summary: webhookWorkflowSummary(eventId),
      signal: ATTEMPT_NOW_SIGNAL,
      signalArgs: [deliveryId],
    });
  }

  private async checkUrl(url: string): Promise<void> {
    try {
      await assertDeliverableUrl(url, this.privateTargets);
    } catch (error) {
      if (error instanceof RefusedUrlError) throw PylonError.invalidRequest(error.message);
      throw error;
    }
  }
}

/** What each event's deliveries POST, by event id. */
function requestsOf(events: PylonEvent[]): Map<string, WebhookRequest> {
  return new Map(events.map((event) => [event.id, webhookRequest(event)]));
}
