import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pino from 'pino';
import { DatabaseError } from 'pg';
import { QueryFailedError } from 'typeorm';
import { pylonLoggerOptions } from './logger-options';
import { MAX_LOG_LINE_BYTES } from './truncation';

const WEBHOOK_SECRET = 'whsec_c2VjcmV0LXNpZ25pbmcta2V5LWZvci10ZXN0cw==';
const API_KEY = 'pyl_4bCdEfGhIjKlMnOpQrStUvWxYz0123456789';
const KEY_HASH = 'f'.repeat(64);

/** A pino logger with Pylon's options, and the lines it wrote. */
function capture(): { logger: pino.Logger; lines: () => string[] } {
  const written: string[] = [];
  const logger = pino(pylonLoggerOptions('info'), { write: (line: string) => void written.push(line) });
  return { logger, lines: () => written };
}

function failedInsert(content: string): QueryFailedError {
  const driverError = Object.assign(new DatabaseError('null value in column "title" violates not-null constraint', 0, 'error'), {
    code: '23502',
    table: 'knowledge_documents',
    column: 'title',
    detail: `Failing row contains (${content}, ${WEBHOOK_SECRET}).`,
  });
  return new QueryFailedError('INSERT INTO "knowledge_documents" VALUES ($1, $2, $3)', [content, WEBHOOK_SECRET, KEY_HASH], driverError);
}

describe('pylonLoggerOptions', () => {
  const body = `user content ${'b'.repeat(400_000)}`;
  const cases: Array<[name: string, write: (logger: pino.Logger) => void, mustNotContain: string[]]> = [
    [
      'a failed query with its parameters, logged as err',
      (logger) => logger.error({ err: failedInsert(body) }, 'request failed'),
      [WEBHOOK_SECRET, KEY_HASH, 'user content', 'Failing row'],
    ],
    [
      "Temporal's activity failure, logged as error",
      (logger) => logger.warn({ error: failedInsert(body), activityId: '1' }, 'Activity failed'),
      [WEBHOOK_SECRET, KEY_HASH, 'user content'],
    ],
    [
      'request headers with credentials',
      (logger) =>
        logger.info({ req: { headers: { authorization: `Bearer ${API_KEY}`, cookie: 'session=1', 'x-api-key': API_KEY } } }, 'request completed'),
      [API_KEY, 'session=1', 'Bearer'],
    ],
    [
      'secret fields by name',
      (logger) => logger.info({ keyHash: KEY_HASH, endpoint: { secret: WEBHOOK_SECRET }, body }, 'row'),
      [KEY_HASH, WEBHOOK_SECRET, 'user content'],
    ],
    ['secrets in a message', (logger) => logger.warn(`could not use ${API_KEY} or ${WEBHOOK_SECRET}`), ['pyl_', 'whsec_']],
    ['a huge message', (logger) => logger.info(body), []],
  ];
  for (const [name, write, mustNotContain] of cases) {
    it(`writes ${name} without secrets, on a bounded line`, () => {
      const { logger, lines } = capture();
      write(logger);
      assert.equal(lines().length, 1);
      const line = lines()[0]!;
      assert.ok(Buffer.byteLength(line) <= MAX_LOG_LINE_BYTES, `${Buffer.byteLength(line)} bytes`);
      JSON.parse(line);
      for (const text of mustNotContain) assert.ok(!line.includes(text), `the line contains ${text}: ${line.slice(0, 500)}`);
    });
  }

  it('keeps what an operator needs of a failed query: its code, constraint, table and SQL text', () => {
    const { logger, lines } = capture();
    logger.error({ err: failedInsert('x') }, 'request failed');
    const entry = JSON.parse(lines()[0]!);
    assert.equal(entry.err.code, '23502');
    assert.equal(entry.err.column, 'title');
    assert.equal(entry.err.table, 'knowledge_documents');
    assert.equal(entry.err.query, 'INSERT INTO "knowledge_documents" VALUES ($1, $2, $3)');
  });

  it('says a line was truncated', () => {
    const { logger, lines } = capture();
    logger.info({ note: 'n'.repeat(20_000) }, 'long');
    const entry = JSON.parse(lines()[0]!);
    assert.ok(entry.truncated.originalBytes > 20_000);
  });
});
