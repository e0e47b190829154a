import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DatabaseError } from 'pg';
import pino from 'pino';
import { QueryFailedError } from 'typeorm';
import { MAX_LOG_LINE_BYTES, pylonLoggerOptions } from '@pylon/logging';
import { TemporalPinoLogger } from './temporal-logger';

const WEBHOOK_SECRET = 'whsec_d29ya2VyLXNpZGUtc2VjcmV0LWZvci10ZXN0cw==';

describe('TemporalPinoLogger', () => {
  it("writes Temporal's activity failure without the failed query's parameters or quoted row", () => {
    const written: string[] = [];
    const logger = new TemporalPinoLogger(pino(pylonLoggerOptions('info'), { write: (line: string) => void written.push(line) }));
    const driverError = Object.assign(new DatabaseError('duplicate key value violates unique constraint "webhook_endpoints_pkey"', 0, 'error'), {
      code: '23505',
      constraint: 'webhook_endpoints_pkey',
      detail: `Key (secret)=(${WEBHOOK_SECRET}) already exists.`,
    });
    const error = new QueryFailedError('INSERT INTO webhook_endpoints VALUES ($1, $2)', ['1', WEBHOOK_SECRET], driverError);
    logger.warn('Activity failed', { error, activityType: 'deliverWebhook', durationMs: 3 });
    logger.debug('below the level', { error });
    assert.equal(written.length, 1);
    const entry = JSON.parse(written[0]!);
    assert.equal(entry.level, 40);
    assert.equal(entry.msg, 'Activity failed');
    assert.equal(entry.activityType, 'deliverWebhook');
    assert.equal(entry.error.code, '23505');
    assert.equal(entry.error.constraint, 'webhook_endpoints_pkey');
    assert.ok(!written[0]!.includes('whsec_'), written[0]);
    assert.ok(Buffer.byteLength(written[0]!) <= MAX_LOG_LINE_BYTES);
  });

  it("keeps the SDK's warning for the activity-only extraction lane at debug, and other warnings as they are", () => {
    const written: string[] = [];
    const logger = new TemporalPinoLogger(pino(pylonLoggerOptions('info'), { write: (line: string) => void written.push(line) }));
    logger.warn('No workflows registered, not polling for workflow tasks', { taskQueue: 'pylon.knowledge-extraction' });
    logger.warn('Activity failed', { activityType: 'extractDocumentText' });
    assert.deepEqual(
      written.map((line) => JSON.parse(line).msg),
      ['Activity failed'],
    );
  });
});
