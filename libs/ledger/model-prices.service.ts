import { Injectable } from '@nestjs/common';
import { PylonConfig, type ConfiguredModelPrice } from '@pylon/config';
import { ModelPriceChanges } from './repositories/model-price-changes';
import { ModelPriceRepository, type ModelPrice } from './repositories/model-price.repository';
import type { TurnUsage } from '@pylon/contracts';

/** A model's price and where it comes from. */
export interface PriceInEffect extends ModelPrice {
  source: 'organisation' | 'configured' | 'default';
}

const FREE: Omit<ModelPrice, 'model'> = { inputPer1k: 0, outputPer1k: 0 };

/** Organisations whose own prices a process keeps; past it, the cache starts afresh. */
const CACHED_ORGS = 10_000;

/** The price that applies to `modelId`: an exact id before its provider's `provider/*`. */
function matching<T extends ModelPrice>(prices: readonly T[], modelId: string): T | undefined {
  const wildcard = `${modelId.slice(0, modelId.indexOf('/'))}/*`;
  return prices.find((price) => price.model === modelId) ?? prices.find((price) => price.model === wildcard);
}

/**
 * What model turns cost in service tokens, per 1 000 input and per 1 000 output tokens: the
 * organisation's own prices (set by the operator through the admin API), else MODEL_PRICES, else free.
 * `local/*` is free unless priced. A turn costs ⌈(input × input price + output × output price) / 1000⌉.
 * An organisation's own prices are read once per process and kept while the process hears every change
 * to them (ModelPriceChanges, announced by the database at commit): each create and each model turn
 * needs them, and they change only when the operator sets them.
 */
@Injectable()
export class ModelPricesService {
  private readonly configured: readonly ConfiguredModelPrice[];
  private readonly cached = new Map<string, readonly ModelPrice[]>();

  constructor(
    private readonly prices: ModelPriceRepository,
    config: PylonConfig,
    private readonly changes: ModelPriceChanges,
  ) {
    this.configured = config.modelPrices;
    changes.onChange((orgId) => (orgId === 'all' ? this.cached.clear() : this.cached.delete(orgId)));
  }

  /**
   * A turn on the organisation's own provider key (`onOwnKey`) pays only the prices the operator set for that
   * organisation: MODEL_PRICES price the operator's keys.
   */
  async priceFor(orgId: string, modelId: string, onOwnKey = false): Promise<PriceInEffect> {
    const own = matching(await this.ownPrices(orgId), modelId);
    if (own) return { ...own, source: 'organisation' };
    const configured = onOwnKey ? undefined : matching(this.configured, modelId);
    if (configured) return { ...configured, source: 'configured' };
    return { model: modelId, ...FREE, source: 'default' };
  }

  /** Whether a turn of this model can cost anything. */
  isPriced(price: ModelPrice): boolean {
    return price.inputPer1k > 0 || price.outputPer1k > 0;
  }

  costOf(price: ModelPrice, usage: Pick<TurnUsage, 'inputTokens' | 'outputTokens'>): number {
    return Math.ceil((usage.inputTokens * price.inputPer1k + usage.outputTokens * price.outputPer1k) / 1000);
  }

  /** The organisation's own prices and the configured ones, for the operator. */
  async list(orgId: string): Promise<{ organisation: ModelPrice[]; configured: ModelPrice[] }> {
    return { organisation: await this.prices.forOrg(orgId), configured: [...this.configured] };
  }

  /**
   * Replaces the organisation's own prices (an empty list: MODEL_PRICES applies again). It answers once this
   * process heard the change announced (at most a second later), and so, as good as always, the workers that
   * charge the turns have heard it too: a run created after the answer is charged the new prices.
   */
  async replace(orgId: string, prices: readonly ModelPrice[]): Promise<void> {
    try {
      await this.changes.heardAfter(orgId, () => this.prices.replace(orgId, prices));
    } finally {
      // Whatever became of the wait, this process applies them from now on.
      this.cached.delete(orgId);
    }
  }

  /** The organisation's own prices: cached while every change to them is heard, else read. */
  private async ownPrices(orgId: string): Promise<readonly ModelPrice[]> {
    if (!this.changes.hearing()) return this.prices.forOrg(orgId);
    const cached = this.cached.get(orgId);
    if (cached) return cached;
    const generation = this.changes.generation;
    const own = await this.prices.forOrg(orgId);
    // A change announced while reading may have come after the read: keep nothing then.
    if (generation === this.changes.generation && this.changes.hearing()) {
      if (this.cached.size >= CACHED_ORGS) this.cached.clear();
      this.cached.set(orgId, own);
    }
    return own;
  }
}
