import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource, In } from 'typeorm';
import type { DeliveryStatus } from '@pylon/contracts';
import {
  PylonEvent,
  WebhookAttempt,
  WebhookDelivery,
  WebhookEndpoint,
  Page,
  PageRequest,
  paginate,
  prepared,
  TOUCH_UPDATED_AT,
  columnsWithPrefix,
  entityColumns,
  prefixedColumns,
} from '@pylon/db';

/** Which of an endpoint's deliveries a list shows; each given field narrows it. */
export interface DeliveryFilter {
  status?: DeliveryStatus;
  eventType?: string;
  eventId?: string;
}

export interface AttemptRecord {
  startedAt: Date;
  durationMs: number;
  statusCode: number | null;
  responseExcerpt: string | null;
  error: string | null;
  /** The headers the attempt sent; null when no request was made. */
  requestHeaders: Record<string, string> | null;
  /** The answer's headers, bounded by the sender; null without an answer. */
  responseHeaders: Record<string, string> | null;
  /** What the delivery becomes after this attempt. */
  status: DeliveryStatus;
  nextAttemptAt: Date | null;
}

/**
 * Every event with deliveries sends this and RECORD_ATTEMPTS, so both are prepared (see
 * prepared-statements.ts). First the deliveries whose endpoint already has its cap of deliveries
 * waiting for a retry are failed without an attempt; then the event is read with its other pending
 * deliveries, each with its endpoint when it was never attempted. (The statement's reading part sees
 * the rows as they were before its UPDATE, hence `refused`.)
 */
const PENDING_DELIVERIES_OF_EVENT = prepared(
  `WITH refused AS (
     UPDATE webhook_deliveries d
        SET status = 'failed', next_attempt_at = NULL, ${TOUCH_UPDATED_AT},
            last_error = 'not attempted: the endpoint already had ' || backlog.n || ' deliveries waiting for a retry, its limit; retry this one from the delivery log'
       FROM (SELECT p.endpoint_id, count(*) AS n FROM webhook_deliveries p
              WHERE p.status = 'pending' AND p.attempt_count > 0
                AND p.endpoint_id IN (SELECT endpoint_id FROM webhook_deliveries WHERE event_id = $1 AND org_id = $2)
              GROUP BY p.endpoint_id) backlog
      WHERE d.event_id = $1 AND d.org_id = $2 AND d.status = 'pending' AND d.attempt_count = 0
        AND backlog.endpoint_id = d.endpoint_id
        AND backlog.n >= COALESCE((SELECT inflight_deliveries_per_endpoint FROM org_limits WHERE org_id = $2), $3)
     RETURNING d.id
   )
   SELECT ${prefixedColumns('ev', 'event', entityColumns(PylonEvent))},
          ${prefixedColumns('d', 'delivery', entityColumns(WebhookDelivery, ['id', 'endpointId', 'attemptCount']))},
          ${prefixedColumns('e', 'endpoint', entityColumns(WebhookEndpoint))}
     FROM events ev
     LEFT JOIN webhook_deliveries d
       ON d.event_id = ev.id AND d.org_id = ev.org_id AND d.status = 'pending' AND NOT EXISTS (SELECT 1 FROM refused WHERE refused.id = d.id)
     LEFT JOIN webhook_endpoints e ON e.id = d.endpoint_id AND e.org_id = ev.org_id AND d.attempt_count = 0
    WHERE ev.id = $1 AND ev.org_id = $2
    ORDER BY d.created_at, d.id`,
);
const RECORD_ATTEMPTS = prepared(
  `WITH made AS (
     SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::int[], $5::text[], $6::timestamptz[], $7::timestamptz[], $8::int[], $9::text[], $10::uuid[],
                          $11::text[], $12::text[])
       AS t(attempt_id, delivery_id, status, status_code, error, next_attempt_at, started_at, duration_ms, response_excerpt, org_id,
            request_headers, response_headers)
   ), attempt AS (
     INSERT INTO webhook_attempts (id, org_id, delivery_id, attempt_number, started_at, duration_ms, status_code, response_excerpt, error,
                                   request_headers, response_headers)
     SELECT made.attempt_id, made.org_id, made.delivery_id,
            (SELECT COALESCE(MAX(attempt_number), 0) + 1 FROM webhook_attempts WHERE delivery_id = made.delivery_id),
            made.started_at, made.duration_ms, made.status_code, made.response_excerpt, made.error,
            made.request_headers::jsonb, made.response_headers::jsonb
       FROM made JOIN webhook_deliveries d ON d.id = made.delivery_id AND d.org_id = made.org_id
   )
   UPDATE webhook_deliveries AS delivery
      SET attempt_count = delivery.attempt_count + 1, status = made.status, last_status_code = made.status_code, last_error = made.error,
          next_attempt_at = made.next_attempt_at,
          delivered_at = CASE WHEN made.status = 'delivered' THEN clock_timestamp() ELSE delivery.delivered_at END, ${TOUCH_UPDATED_AT}
     FROM made
    WHERE delivery.id = made.delivery_id AND delivery.org_id = made.org_id`,
);

/** One attempt to record, with the organisation its delivery belongs to. */
export interface AttemptOfDelivery {
  orgId: string;
  deliveryId: string;
  record: AttemptRecord;
}

/** An event's deliveries that are still pending, as its first attempts see them. */
export interface EventDeliveries {
  event: PylonEvent;
  /** Deliveries never attempted, each with its endpoint. */
  unattempted: Array<{ deliveryId: string; endpoint: WebhookEndpoint }>;
  /** Deliveries attempted and still pending: they belong to the retry schedule. */
  retrying: string[];
}

export interface DeliveryContext {
  delivery: WebhookDelivery;
  endpoint: WebhookEndpoint;
  event: PylonEvent;
}

/**
 * Webhook deliveries and their attempts (`webhook_deliveries`, `webhook_attempts`), with the endpoints and
 * events (`events`) an attempt reads, and the test event an endpoint is sent.
 */
@Injectable()
export class WebhookDeliveryRepository {
  constructor(private readonly db: DataSource) {}

  private get deliveries() {
    return this.db.getRepository(WebhookDelivery);
  }

  /**
   * The event's pending deliveries, after failing without an attempt those whose endpoint already has its
   * organisation's cap (`org_limits`, else `inflightCap`) of deliveries waiting for a retry: an endpoint that is down gets no more work queued.
   * One statement (PENDING_DELIVERIES_OF_EVENT).
   */
  async pendingDeliveriesOfEvent(orgId: string, eventId: string, inflightCap: number): Promise<EventDeliveries | null> {
    const rows = (await this.db.query(PENDING_DELIVERIES_OF_EVENT, [eventId, orgId, inflightCap])) as Array<Record<string, unknown>>;
    if (rows.length === 0) return null;
    const event = columnsWithPrefix(rows[0]!, 'event', new PylonEvent())!;
    const deliveries = rows.flatMap((row) => {
      const delivery = columnsWithPrefix(row, 'delivery', {} as Pick<WebhookDelivery, 'id' | 'endpointId' | 'attemptCount'>);
      return delivery ? [{ delivery, endpoint: columnsWithPrefix(row, 'endpoint', new WebhookEndpoint()) }] : [];
    });
    return {
      event,
      unattempted: deliveries.flatMap(({ delivery, endpoint }) =>
        delivery.attemptCount === 0 && endpoint ? [{ deliveryId: delivery.id, endpoint }] : [],
      ),
      retrying: deliveries.filter(({ delivery }) => delivery.attemptCount > 0).map(({ delivery }) => delivery.id),
    };
  }

  /** These deliveries, those still pending, each with its endpoint and event (for a round of retries). */
  async pendingDeliveryContexts(orgId: string, deliveryIds: string[]): Promise<DeliveryContext[]> {
    if (deliveryIds.length === 0) return [];
    const deliveries = await this.deliveries.findBy({ orgId, id: In(deliveryIds), status: 'pending' });
    if (deliveries.length === 0) return [];
    const [endpoints, events] = await Promise.all([
      this.db.getRepository(WebhookEndpoint).findBy({ orgId, id: In([...new Set(deliveries.map((delivery) => delivery.endpointId))]) }),
      this.db.getRepository(PylonEvent).findBy({ orgId, id: In([...new Set(deliveries.map((delivery) => delivery.eventId))]) }),
    ]);
    const endpointById = new Map(endpoints.map((endpoint) => [endpoint.id, endpoint]));
    const eventById = new Map(events.map((event) => [event.id, event]));
    return deliveries.flatMap((delivery) => {
      const endpoint = endpointById.get(delivery.endpointId);
      const event = eventById.get(delivery.eventId);
      return endpoint && event ? [{ delivery, endpoint, event }] : [];
    });
  }

  /** Still-pending deliveries given up on, with the reason. */
  async failPendingDeliveries(orgId: string, deliveryIds: string[], reason: string): Promise<void> {
    if (deliveryIds.length === 0) return;
    await this.db.query(
      `UPDATE webhook_deliveries SET status = 'failed', last_error = $3, next_attempt_at = NULL, ${TOUCH_UPDATED_AT}
        WHERE org_id = $1 AND id = ANY($2::uuid[]) AND status = 'pending'`,
      [orgId, deliveryIds, reason],
    );
  }

  findDelivery(orgId: string, deliveryId: string): Promise<WebhookDelivery | null> {
    return this.deliveries.findOneBy({ id: deliveryId, orgId });
  }

  async deliveryContext(orgId: string, deliveryId: string): Promise<DeliveryContext | null> {
    const delivery = await this.findDelivery(orgId, deliveryId);
    if (!delivery) return null;
    const [endpoint, event] = await Promise.all([
      this.db.getRepository(WebhookEndpoint).findOneBy({ id: delivery.endpointId, orgId }),
      this.db.getRepository(PylonEvent).findOneBy({ id: delivery.eventId, orgId }),
    ]);
    return endpoint && event ? { delivery, endpoint, event } : null;
  }

  /**
   * Records attempts, each with what its delivery becomes, in one statement. The deliveries must be
   * distinct (an attempt's number follows the ones its delivery already has). Attempts of several
   * organisations go together, so each carries its own: one whose delivery is not of that organisation
   * is not recorded.
   */
  async recordAttempts(attempts: AttemptOfDelivery[]): Promise<void> {
    if (attempts.length === 0) return;
    const column = <T>(pick: (attempt: AttemptOfDelivery) => T): T[] => attempts.map(pick);
    await this.db.query(RECORD_ATTEMPTS, [
      column(() => randomUUID()),
      column(({ deliveryId }) => deliveryId),
      column(({ record }) => record.status),
      column(({ record }) => record.statusCode),
      column(({ record }) => record.error),
      column(({ record }) => record.nextAttemptAt),
      column(({ record }) => record.startedAt),
      column(({ record }) => record.durationMs),
      column(({ record }) => record.responseExcerpt),
      column(({ orgId }) => orgId),
      column(({ record }) => (record.requestHeaders ? JSON.stringify(record.requestHeaders) : null)),
      column(({ record }) => (record.responseHeaders ? JSON.stringify(record.responseHeaders) : null)),
    ]);
  }

  async setDeliveryStatus(orgId: string, deliveryId: string, status: DeliveryStatus, error: string | null): Promise<void> {
    await this.db.query(
      `UPDATE webhook_deliveries SET status = $3, last_error = COALESCE($4, last_error), next_attempt_at = NULL, ${TOUCH_UPDATED_AT}
        WHERE id = $1 AND org_id = $2`,
      [deliveryId, orgId, status, error],
    );
  }

  /** An endpoint's deliveries, newest first, of the filter's status, event type and event when given. */
  listDeliveries(orgId: string, endpointId: string, filter: DeliveryFilter, page: PageRequest): Promise<Page<WebhookDelivery>> {
    const query = this.deliveries
      .createQueryBuilder('delivery')
      .where('delivery.org_id = :orgId AND delivery.endpoint_id = :endpointId', { orgId, endpointId });
    if (filter.status) query.andWhere('delivery.status = :status', { status: filter.status });
    if (filter.eventType) query.andWhere('delivery.event_type = :eventType', { eventType: filter.eventType });
    if (filter.eventId) query.andWhere('delivery.event_id = :eventId', { eventId: filter.eventId });
    return paginate(query, page);
  }

  /** These events of the organisation (what their deliveries POST is built from). */
  findEvents(orgId: string, eventIds: string[]): Promise<PylonEvent[]> {
    if (eventIds.length === 0) return Promise.resolve([]);
    return this.db.getRepository(PylonEvent).findBy({ orgId, id: In([...new Set(eventIds)]) });
  }

  /**
   * Bulk recovery: the endpoint's failed deliveries created at or after `since`, oldest first, at most `limit`,
   * become pending again (due now) in one statement, so that the log shows them on their way and a second
   * recovery does not pick them again. Returns them (with their events), and whether more failed ones remain past `limit`.
   */
  async reopenFailedDeliveries(
    orgId: string,
    endpointId: string,
    since: Date,
    limit: number,
  ): Promise<{ reopened: Array<{ deliveryId: string; eventId: string }>; more: boolean }> {
    const rows = (await this.db.query(
      `WITH candidates AS (
         SELECT id, created_at FROM webhook_deliveries
          WHERE org_id = $1 AND endpoint_id = $2 AND status = 'failed' AND created_at >= $3
          ORDER BY created_at, id
          LIMIT $4 + 1
       ), reopened AS (
         UPDATE webhook_deliveries d
            SET status = 'pending', next_attempt_at = clock_timestamp(), ${TOUCH_UPDATED_AT}
           FROM (SELECT id FROM candidates ORDER BY created_at, id LIMIT $4) picked
          WHERE d.id = picked.id AND d.org_id = $1 AND d.status = 'failed'
          RETURNING d.id, d.event_id, d.created_at
       )
       SELECT id, event_id, (SELECT count(*) FROM candidates) > $4 AS more FROM reopened ORDER BY created_at, id`,
      [orgId, endpointId, since, limit],
    )) as Array<{ id: string; event_id: string; more: boolean }>;
    return { reopened: rows.map((row) => ({ deliveryId: row.id, eventId: row.event_id })), more: rows[0]?.more ?? false };
  }

  /** Reopened deliveries whose replay could not be started are failed again, as they were (their last error kept). */
  async refailDeliveries(orgId: string, deliveryIds: string[]): Promise<void> {
    if (deliveryIds.length === 0) return;
    await this.db.query(
      `UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, ${TOUCH_UPDATED_AT}
        WHERE org_id = $1 AND id = ANY($2::uuid[]) AND status = 'pending' AND next_attempt_at IS NOT NULL`,
      [orgId, deliveryIds],
    );
  }

  listAttempts(orgId: string, deliveryIds: string[]): Promise<WebhookAttempt[]> {
    if (deliveryIds.length === 0) return Promise.resolve([]);
    return this.db
      .getRepository(WebhookAttempt)
      .createQueryBuilder('attempt')
      .where('attempt.org_id = :orgId AND attempt.delivery_id IN (:...deliveryIds)', { orgId, deliveryIds })
      .orderBy('attempt.attempt_number', 'ASC')
      .getMany();
  }

  /**
   * A test event (a fact of its own, not one of the organisation's resources) with its one pending delivery,
   * to that endpoint only, in one transaction.
   */
  recordTestDelivery(
    orgId: string,
    endpointId: string,
    event: Pick<PylonEvent, 'type' | 'data'>,
  ): Promise<{ event: PylonEvent; delivery: WebhookDelivery }> {
    return this.db.transaction(async (manager) => {
      const now = new Date();
      const events = manager.getRepository(PylonEvent);
      const recorded = await events.save(events.create({ ...event, id: randomUUID(), orgId, resourceId: endpointId, createdAt: now }));
      const deliveries = manager.getRepository(WebhookDelivery);
      const delivery = await deliveries.save(
        deliveries.create({
          id: randomUUID(),
          orgId,
          endpointId,
          eventId: recorded.id,
          eventType: recorded.type,
          status: 'pending',
          attemptCount: 0,
          nextAttemptAt: null,
          lastStatusCode: null,
          lastError: null,
          deliveredAt: null,
          createdAt: now,
          updatedAt: now,
        }),
      );
      return { event: recorded, delivery };
    });
  }
}
