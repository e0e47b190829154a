import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadConfig } from '@pylon/config';
import type { ModelPrice, ModelPriceRepository } from './repositories/model-price.repository';
import type { ModelPriceChanges } from './repositories/model-price-changes';
import { ModelPricesService } from './model-prices.service';

/** Announcements under the test's control: heard or not, and changes it announces. */
class FakeChanges {
  generation = 0;
  heard = true;
  private readonly listeners: Array<(changed: string) => void> = [];
  hearing(): boolean {
    return this.heard;
  }
  onChange(listener: (changed: string) => void): void {
    this.listeners.push(listener);
  }
  announce(changed: string): void {
    this.generation++;
    for (const listener of this.listeners) listener(changed);
  }
  /** As the database would: a change that changed something is announced before it answers. */
  async heardAfter<T>(id: string, change: () => Promise<T>): Promise<T> {
    const result = await change();
    if (result) this.announce(id);
    return result;
  }
}

function service(own: ModelPrice[], configured: string, changes = new FakeChanges()): ModelPricesService {
  const repository = { forOrg: async () => own } as unknown as ModelPriceRepository;
  return new ModelPricesService(repository, loadConfig({ MODEL_PRICES: configured }), changes as unknown as ModelPriceChanges);
}

/** A repository of one organisation's prices that counts its reads; `during` runs inside the next read. */
function countingRepository(prices: Map<string, ModelPrice[]>) {
  const repository = {
    reads: 0,
    during: undefined as (() => void) | undefined,
    async forOrg(orgId: string) {
      repository.reads++;
      const own = prices.get(orgId) ?? [];
      const during = repository.during;
      repository.during = undefined;
      during?.();
      return own;
    },
    async replace(orgId: string, own: ModelPrice[]) {
      prices.set(orgId, own);
      return true;
    },
  };
  return repository;
}

describe('model prices', () => {
  const configured = JSON.stringify({ 'openai/*': { input: 1, output: 4 }, 'openai/gpt-4o': { input: 5, output: 15 } });

  it("takes the organisation's own price, then MODEL_PRICES, an exact id before its provider's *, else free", async () => {
    const prices = service([{ model: 'openai/gpt-4o-mini', inputPer1k: 0.5, outputPer1k: 0.5 }], configured);
    assert.deepEqual(await prices.priceFor('org', 'openai/gpt-4o-mini'), {
      model: 'openai/gpt-4o-mini',
      inputPer1k: 0.5,
      outputPer1k: 0.5,
      source: 'organisation',
    });
    assert.equal((await prices.priceFor('org', 'openai/gpt-4o')).inputPer1k, 5);
    assert.deepEqual(await prices.priceFor('org', 'openai/o3'), { model: 'openai/*', inputPer1k: 1, outputPer1k: 4, source: 'configured' });
    const free = await prices.priceFor('org', 'local/extractive');
    assert.equal(free.source, 'default');
    assert.equal(prices.isPriced(free), false);
  });

  it('charges a turn ⌈(input × input price + output × output price) / 1000⌉', () => {
    const prices = service([], configured);
    assert.equal(prices.costOf({ model: 'm/x', inputPer1k: 1, outputPer1k: 4 }, { inputTokens: 1000, outputTokens: 250 }), 2);
    assert.equal(
      prices.costOf({ model: 'm/x', inputPer1k: 0.15, outputPer1k: 0.6 }, { inputTokens: 1, outputTokens: 0 }),
      1,
      'any use of a priced model costs at least 1',
    );
    assert.equal(prices.costOf({ model: 'm/x', inputPer1k: 0, outputPer1k: 0 }, { inputTokens: 10_000, outputTokens: 10_000 }), 0);
  });

  describe("an organisation's own prices, cached while their changes are heard", () => {
    const gpt = (inputPer1k: number): ModelPrice => ({ model: 'openai/gpt-4o', inputPer1k, outputPer1k: 1 });
    const setUp = () => {
      const stored = new Map([['org', [gpt(2)]]]);
      const repository = countingRepository(stored);
      const changes = new FakeChanges();
      const prices = new ModelPricesService(repository as unknown as ModelPriceRepository, loadConfig({}), changes as unknown as ModelPriceChanges);
      return { stored, repository, changes, prices };
    };

    it('are read once per organisation, and again after an announced change to them', async () => {
      const { stored, repository, changes, prices } = setUp();
      assert.equal((await prices.priceFor('org', 'openai/gpt-4o')).inputPer1k, 2);
      assert.equal((await prices.priceFor('org', 'local/extractive')).source, 'default');
      assert.equal((await prices.priceFor('org', 'openai/gpt-4o')).inputPer1k, 2);
      assert.equal(repository.reads, 1);
      await prices.priceFor('other', 'openai/gpt-4o');
      assert.equal(repository.reads, 2);
      stored.set('org', [gpt(3)]);
      changes.announce('other');
      assert.equal((await prices.priceFor('org', 'openai/gpt-4o')).inputPer1k, 2, "another organisation's change keeps this one's");
      changes.announce('org');
      assert.equal((await prices.priceFor('org', 'openai/gpt-4o')).inputPer1k, 3);
      stored.set('org', [gpt(4)]);
      changes.announce('all');
      assert.equal((await prices.priceFor('org', 'openai/gpt-4o')).inputPer1k, 4, "'all' (announcements missed) drops every organisation");
      assert.equal(repository.reads, 4);
    });

    it('the process that replaces them applies the new ones at once', async () => {
      const { repository, prices } = setUp();
      await prices.priceFor('org', 'openai/gpt-4o');
      await prices.replace('org', [gpt(7)]);
      assert.equal((await prices.priceFor('org', 'openai/gpt-4o')).inputPer1k, 7);
      assert.equal(repository.reads, 2);
    });

    it('are read every time while changes are not heard', async () => {
      const { repository, changes, prices } = setUp();
      changes.heard = false;
      await prices.priceFor('org', 'openai/gpt-4o');
      await prices.priceFor('org', 'openai/gpt-4o');
      assert.equal(repository.reads, 2);
    });

    it('a read a change was announced during is not kept', async () => {
      const { stored, repository, changes, prices } = setUp();
      repository.during = () => {
        stored.set('org', [gpt(5)]);
        changes.announce('org');
      };
      assert.equal((await prices.priceFor('org', 'openai/gpt-4o')).inputPer1k, 2);
      assert.equal((await prices.priceFor('org', 'openai/gpt-4o')).inputPer1k, 5);
      assert.equal(repository.reads, 2);
    });
  });
});
