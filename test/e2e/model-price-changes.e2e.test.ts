import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, describe, it } from 'node:test';
import type { DataSource } from 'typeorm';
import { loadConfig } from '@pylon/config';
import { ModelPriceChanges, ModelPriceRepository } from '@pylon/ledger';
import { createDataSource } from '@pylon/db';
import { ModelPricesService } from '@pylon/ledger';
import { eventually, recordAnnouncements } from '../support/change-announcements';
import { testInfra } from '../support/infra';
import { holdsFor } from '../support/wait';

/**
 * The database announces every change to an organisation's model prices, naming it, to every listening process;
 * the process that replaces them answers once it heard that, so that the workers charging the turns have too.
 */
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
    assert.equal(await prices.replace(orgId, [{ model: 'local/*', inputPer1k: 1, outputPer1k: 1 }]), true);
    await eventually(() => heard.length >= 2, 'the first announcement');
    assert.equal(await prices.replace(orgId, []), true);
    await eventually(() => heard.length >= 3, 'the second announcement');
    assert.equal(await prices.replace(orgId, []), false, 'replacing nothing with nothing changes nothing');
    // An absence: no third announcement comes.
    await holdsFor('no announcement of replacing nothing with nothing', 100, () => heard.length === 3);
    assert.deepEqual(heard.slice(1), [orgId, orgId], 'one announcement per change; replacing nothing with nothing is none');
    assert.equal(changes.generation, generation + 2);
  });

  it('a replacement answers after its announcement was heard; one that changes nothing answers without waiting', async () => {
    db ??= await createDataSource({ url: testInfra().databaseUrl, poolSize: 1, applicationName: 'pylon-test' }).initialize();
    const service = new ModelPricesService(new ModelPriceRepository(db), loadConfig({ DATABASE_URL: testInfra().databaseUrl }), changes);
    const heard = await recordAnnouncements(changes);
    const orgId = randomUUID();
    await db.query(`INSERT INTO organizations (id, name) VALUES ($1, 'prices heard')`, [orgId]);
    heard.length = 0;

    await service.replace(orgId, [{ model: 'openai/*', inputPer1k: 2, outputPer1k: 8 }]);
    heard.push('answered');
    assert.deepEqual(heard, [orgId, 'answered'], 'the new prices are heard before the replacement answers');
    assert.equal((await service.priceFor(orgId, 'openai/gpt-4o')).inputPer1k, 2);

    heard.length = 0;
    await service.replace(orgId, []);
    heard.push('answered');
    assert.deepEqual(heard, [orgId, 'answered'], 'clearing them is heard before it answers');

    heard.length = 0;
    const started = Date.now();
    await service.replace(orgId, []);
    const waited = Date.now() - started;
    await holdsFor('no announcement of clearing nothing', 100, () => heard.length === 0);
    assert.deepEqual([...heard], [], 'clearing nothing announces nothing');
    assert.ok(waited < 1_000, `and answers without waiting out the second an announcement is awaited (${waited} ms)`);
  });
});
