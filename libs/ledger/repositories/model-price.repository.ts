import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** A model's price in service tokens per 1 000 input and per 1 000 output tokens. */
export interface ModelPrice {
  model: string;
  inputPer1k: number;
  outputPer1k: number;
}

/** The operator's per-organisation model prices (`org_model_prices`), which win over MODEL_PRICES. */
@Injectable()
export class ModelPriceRepository {
  constructor(private readonly db: DataSource) {}

  async forOrg(orgId: string): Promise<ModelPrice[]> {
    const rows: Array<{ model: string; input: number; output: number }> = await this.db.query(
      `SELECT model, input_per_1k::float8 AS input, output_per_1k::float8 AS output FROM org_model_prices WHERE org_id = $1 ORDER BY model`,
      [orgId],
    );
    return rows.map((row) => ({ model: row.model, inputPer1k: row.input, outputPer1k: row.output }));
  }

  /**
   * Replaces the organisation's prices with `prices` (none: back to MODEL_PRICES), in one transaction. Whether
   * any row went or came: replacing nothing with nothing changes (and announces) nothing.
   */
  async replace(orgId: string, prices: readonly ModelPrice[]): Promise<boolean> {
    return this.db.transaction(async (manager) => {
      const [{ gone }]: Array<{ gone: number }> = await manager.query(
        `WITH gone AS (DELETE FROM org_model_prices WHERE org_id = $1 RETURNING 1) SELECT count(*)::int AS gone FROM gone`,
        [orgId],
      );
      if (prices.length === 0) return gone > 0;
      await manager.query(
        `INSERT INTO org_model_prices (org_id, model, input_per_1k, output_per_1k)
         SELECT $1, * FROM unnest($2::text[], $3::numeric[], $4::numeric[])`,
        [orgId, prices.map((price) => price.model), prices.map((price) => price.inputPer1k), prices.map((price) => price.outputPer1k)],
      );
      return true;
    });
  }
}
