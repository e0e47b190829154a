import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { prepared } from '@pylon/db';

/** What a bucket answered: the requests granted now, and what it holds after them. */
export interface BucketTake {
  granted: number;
  /** Tokens left (fractional: the bucket refills continuously). */
  tokens: number;
}

/** The bucket's level as of now: what it held, refilled at `rate` per second since, up to `burst`. */
const REFILLED = `LEAST($2::float8, b.tokens + GREATEST(0, EXTRACT(EPOCH FROM EXCLUDED.refilled_at - b.refilled_at)) * $3::float8)`;

/** Sent on every take, by every API process: prepared (see prepared-statements.ts). */
const TAKE = prepared(
  `INSERT INTO api_key_rate_buckets AS b (key_id, tokens, refilled_at, granted)
       VALUES ($1, $2::float8 - LEAST($4::float8, $2::float8), clock_timestamp(), LEAST($4::float8, $2::float8)::int)
       ON CONFLICT (key_id) DO UPDATE SET
         granted = LEAST($4::float8, FLOOR(${REFILLED}))::int,
         tokens = ${REFILLED} - LEAST($4::float8, FLOOR(${REFILLED})),
         refilled_at = GREATEST(b.refilled_at, EXCLUDED.refilled_at)
       RETURNING granted, tokens`,
);

/**
 * Each API key's token bucket, in PostgreSQL so that every API replica draws on the same one: it holds
 * up to `burst` requests and refills at `rate` per second. One statement takes what it can of what is
 * asked (never more than the whole tokens there are), under the row's lock, so concurrent takes never
 * grant a token twice.
 */
@Injectable()
export class KeyRateBucketRepository {
  constructor(private readonly db: DataSource) {}

  /** Takes up to `wanted` tokens from the key's bucket (a new bucket starts full). */
  async take(keyId: string, burst: number, ratePerSecond: number, wanted: number): Promise<BucketTake> {
    const [row] = (await this.db.query(TAKE, [keyId, burst, ratePerSecond, wanted])) as { granted: number; tokens: number }[];
    return { granted: Number(row!.granted), tokens: Number(row!.tokens) };
  }
}
