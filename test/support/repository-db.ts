import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { Outbox, createDataSource } from '@pylon/db';
import { webhookSubscriptionFilter } from '@pylon/webhooks';
import { testInfra } from './infra';

/**
 * The repository tier: the database `npm test` started and migrated (PGlite, or the server of
 * DATABASE_URL), reached through the application's own DataSource, with no API or worker.
 */
export function repositoryDataSource(): Promise<DataSource> {
  return createDataSource({ url: testInfra().databaseUrl, poolSize: 2, applicationName: 'pylon-repository-test' }).initialize();
}

/** The outbox the applications give their repositories: events delivered by the webhooks' subscription filter. */
export function applicationOutbox(): Outbox {
  return new Outbox(webhookSubscriptionFilter);
}

/** A fresh organisation with one agent version, written directly: what a run needs to exist. */
export async function insertOrganization(db: DataSource): Promise<{ orgId: string; versionId: string }> {
  const orgId = randomUUID();
  const agentId = randomUUID();
  const versionId = randomUUID();
  await db.query(`INSERT INTO organizations (id, name) VALUES ($1, 'repository test')`, [orgId]);
  await db.query(`INSERT INTO agents (id, org_id, name) VALUES ($1, $2, 'agent')`, [agentId, orgId]);
  await db.query(
    `INSERT INTO agent_versions (id, agent_id, org_id, version, model, instructions, run_timeout_seconds) VALUES ($1, $2, $3, 1, 'local', 'be brief', 60)`,
    [versionId, agentId, orgId],
  );
  return { orgId, versionId };
}

/** An enabled webhook endpoint of the organisation, subscribed to `events` (null: every event). */
export async function insertEndpoint(db: DataSource, orgId: string, events: string[] | null = null): Promise<string> {
  const id = randomUUID();
  await db.query(
    `INSERT INTO webhook_endpoints (id, org_id, url, events, enabled, secret, created_at, updated_at)
     VALUES ($1, $2, 'http://127.0.0.1:9/hooks', $3, true, 'whsec_test', now(), now())`,
    [id, orgId, events],
  );
  return id;
}
