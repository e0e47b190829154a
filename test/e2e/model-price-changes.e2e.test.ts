import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, describe, it } from 'node:test';
import type { DataSource } from 'typeorm';
import { loadConfig } from '@pylon/config';
import { ModelPriceChanges, ModelPriceRepository, createDataSource } from '@pylon/db';
import { eventually, recordAnnouncements } from '../support/change-announcements';
import { testInfra } from '../support/infra';

/** The database announces every change to an organisation's model prices, naming it, to every listening process. */
describe('model price changes', () => {
  let db: DataSource | undefined;
  const changes = new ModelPriceChanges(loadConfig({ DATABASE_URL: testInfra().databaseUrl }));
  after(async () => {
    await changes.onModuleDestroy();
    await db?.destroy();
  });

  it('setting, replacing and clearing an organisation’s prices are each announced with its id once committed', async () => {
    db = await createDataSource({ url: testInfra().databaseUrl, poolSize: 1, applicationName: 'pylon-test' }).initialize();
    const prices = new ModelPriceRepository(db);
    const heard = await recordAnnouncements(changes);
    assert.deepEqual(heard, ['all'], 'what changed before listening was not heard: everything may have');

    const orgId = randomUUID();
    await db.query(`INSERT INTO organizations (id, name) VALUES ($1, 'prices')`, [orgId]);
    const generation = changes.generation;
    await prices.replace(orgId, [{ model: 'local/*', inputPer1k: 1, outputPer1k: 1 }]);
    await eventually(() => heard.length >= 2, 'the first announcement');
    await prices.replace(orgId, []);
    await eventually(() => heard.length >= 3, 'the second announcement');
    await prices.replace(orgId, []);
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.deepEqual(heard.slice(1), [orgId, orgId], 'one announcement per change; replacing nothing with nothing is none');
    assert.equal(changes.generation, generation + 2);
  });
});
