import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, describe, it } from 'node:test';
import type { DataSource } from 'typeorm';
import { loadConfig } from '@pylon/config';
import { ApiKey, createDataSource } from '@pylon/db';
import { ApiKeyChanges, ApiKeyRepository } from '@pylon/api-keys';
import { recordAnnouncements } from '../support/change-announcements';
import { testInfra } from '../support/infra';
import { holdsFor } from '../support/wait';

/**
 * A process that revokes or rolls a key answers only once it heard the change announced: PostgreSQL sends the
 * announcement to every replica at that commit, so the caller's next request finds them all refusing the key.
 */
describe('API key changes heard by the process that made them', () => {
  let db: DataSource | undefined;
  const changes = new ApiKeyChanges(loadConfig({ DATABASE_URL: testInfra().databaseUrl }));
  after(async () => {
    await changes.onModuleDestroy();
    await db?.destroy();
  });

  it('a revocation or a new rate limit resolves after its announcement was heard; what changes nothing announces nothing and does not wait', async () => {
    db = await createDataSource({ url: testInfra().databaseUrl, poolSize: 1, applicationName: 'pylon-test' }).initialize();
    const keys = new ApiKeyRepository(db);
    const seen = await recordAnnouncements(changes);

    const orgId = randomUUID();
    await db.query(`INSERT INTO organizations (id, name) VALUES ($1, 'key changes')`, [orgId]);
    const key = await keys.insert(
      Object.assign(new ApiKey(), {
        id: randomUUID(),
        orgId,
        name: 'k',
        lookupId: randomUUID().replaceAll('-', '').slice(0, 16),
        secretHash: '00'.repeat(32),
        scopes: ['runs:read'],
        hint: 'k',
      }),
    );
    seen.length = 0;

    const limited = await changes.heardAfter(key.id, () => keys.setRateLimit(orgId, key.id, { rateLimitPerSecond: 5 }));
    seen.push('answered');
    assert.equal(limited, true);
    assert.deepEqual(seen, [key.id, 'answered'], 'a new rate limit is heard before it answers');
    seen.length = 0;
    const sameAgain = await changes.heardAfter(key.id, () => keys.setRateLimit(orgId, key.id, { rateLimitPerSecond: 5, rateLimitBurst: undefined }));
    // An absence: nothing is announced for a while after it.
    await holdsFor('no announcement of the same limit again', 100, () => seen.length === 0);
    assert.equal(sameAgain, false, 'the same limit again changes nothing');
    assert.deepEqual([...seen], [], 'and is not announced');

    const revoked = await changes.heardAfter(key.id, () => keys.revoke(orgId, key.id));
    assert.equal(revoked, true);
    seen.push('answered');
    assert.deepEqual(seen, [key.id, 'answered'], 'the announcement is heard before the revocation answers');

    seen.length = 0;
    const started = Date.now();
    assert.equal(await changes.heardAfter(key.id, () => keys.revoke(orgId, key.id)), false, 'revoked before: nothing changes');
    const waited = Date.now() - started;
    await holdsFor('no announcement of a second revocation', 100, () => seen.length === 0);
    assert.deepEqual([...seen], [], 'no announcement');
    assert.ok(waited < 1_000, `answered without waiting out the second an announcement is awaited (${waited} ms)`);
  });
});
