import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadConfig } from '@pylon/config';
import type { ModelPrice, ModelPriceRepository } from '@pylon/db';
import { ModelPricesService } from './model-prices.service';

function service(own: ModelPrice[], configured: string): ModelPricesService {
  const repository = { forOrg: async () => own } as unknown as ModelPriceRepository;
  return new ModelPricesService(repository, loadConfig({ MODEL_PRICES: configured }));
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
});
