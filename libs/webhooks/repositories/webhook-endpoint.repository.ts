import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { WebhookEndpoint, Page, PageRequest, paginate, TOUCH_UPDATED_AT, returnedRows } from '@pylon/db';

export type EndpointChanges = Partial<Pick<WebhookEndpoint, 'url' | 'events' | 'enabled' | 'description'>>;

/** Webhook endpoints (`webhook_endpoints`): their settings and secrets. */
@Injectable()
export class WebhookEndpointRepository {
  constructor(private readonly db: DataSource) {}

  private get endpoints() {
    return this.db.getRepository(WebhookEndpoint);
  }

  /**
   * Adds the endpoint only while its organisation has fewer than `cap` endpoints (enabled or not); otherwise
   * answers how many it has. The organisation's row stays locked from the count to the insert, so two
   * concurrent creates of one organisation queue and can never both pass the cap. `created` is null, with
   * nothing written, when the organisation already used the endpoint's Idempotency-Key.
   */
  createEndpoint(
    endpoint: Omit<WebhookEndpoint, 'updatedAt' | 'disabledReason' | 'previousSecret' | 'previousSecretExpiresAt'>,
    cap: number,
  ): Promise<{ created: WebhookEndpoint | null } | { count: number }> {
    return this.db.transaction(async (manager) => {
      await manager.query(`SELECT 1 FROM organizations WHERE id = $1 FOR NO KEY UPDATE`, [endpoint.orgId]);
      const endpoints = manager.getRepository(WebhookEndpoint);
      if (endpoint.idempotencyKey && (await endpoints.existsBy({ orgId: endpoint.orgId, idempotencyKey: endpoint.idempotencyKey }))) {
        return { created: null };
      }
      const [{ count }] = (await manager.query(`SELECT count(*)::int AS count FROM webhook_endpoints WHERE org_id = $1`, [endpoint.orgId])) as Array<{
        count: number;
      }>;
      if (count >= cap) return { count };
      return {
        created: await endpoints.save(
          endpoints.create({ ...endpoint, disabledReason: null, previousSecret: null, previousSecretExpiresAt: null, updatedAt: endpoint.createdAt }),
        ),
      };
    });
  }

  findEndpointByIdempotencyKey(orgId: string, idempotencyKey: string): Promise<WebhookEndpoint | null> {
    return this.endpoints.findOneBy({ orgId, idempotencyKey });
  }

  findEndpoint(orgId: string, endpointId: string): Promise<WebhookEndpoint | null> {
    return this.endpoints.findOneBy({ id: endpointId, orgId });
  }

  listEndpoints(orgId: string, page: PageRequest): Promise<Page<WebhookEndpoint>> {
    return paginate(this.endpoints.createQueryBuilder('endpoint').where('endpoint.org_id = :orgId', { orgId }), page);
  }

  async updateEndpoint(orgId: string, endpointId: string, changes: EndpointChanges): Promise<WebhookEndpoint | null> {
    const reenabled = changes.enabled === true ? { disabledReason: null } : {};
    await this.endpoints.update({ id: endpointId, orgId }, { ...changes, ...reenabled, updatedAt: new Date() });
    return this.findEndpoint(orgId, endpointId);
  }

  async deleteEndpoint(orgId: string, endpointId: string): Promise<boolean> {
    return ((await this.endpoints.delete({ id: endpointId, orgId })).affected ?? 0) > 0;
  }

  /** The new secret signs from now on; the old one keeps signing alongside until `graceUntil`. */
  async rotateSecret(orgId: string, endpointId: string, secret: string, graceUntil: Date): Promise<WebhookEndpoint | null> {
    await this.db.query(
      `UPDATE webhook_endpoints SET previous_secret = secret, previous_secret_expires_at = $4, secret = $3, ${TOUCH_UPDATED_AT}
        WHERE id = $1 AND org_id = $2`,
      [endpointId, orgId, secret, graceUntil],
    );
    return this.findEndpoint(orgId, endpointId);
  }

  async disableEndpoint(orgId: string, endpointId: string, reason: string): Promise<void> {
    await this.db.query(`UPDATE webhook_endpoints SET enabled = false, disabled_reason = $3, ${TOUCH_UPDATED_AT} WHERE id = $1 AND org_id = $2`, [
      endpointId,
      orgId,
      reason,
    ]);
  }

  /** Disables every enabled endpoint of the organisation at once; returns how many it disabled. */
  async disableAllEndpoints(orgId: string, reason: string): Promise<number> {
    const result = await this.db.query(
      `UPDATE webhook_endpoints SET enabled = false, disabled_reason = $2, ${TOUCH_UPDATED_AT} WHERE org_id = $1 AND enabled RETURNING id`,
      [orgId, reason],
    );
    return returnedRows(result).length;
  }
}
