import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DatabaseError } from 'pg';
import { stdSerializers } from 'pino';
import { QueryFailedError } from 'typeorm';
import { describeError, type ErrorDescription } from './error-description';

const WEBHOOK_SECRET = 'whsec_c2VjcmV0LXNpZ25pbmcta2V5LWZvci10ZXN0cw==';
const KEY_HASH = 'a'.repeat(64);

/** What pg and TypeORM make of a CHECK violation on an INSERT of a webhook endpoint. */
function checkViolation(): QueryFailedError {
  const driverError = new DatabaseError('new row for relation "webhook_endpoints" violates check constraint "url_check"', 0, 'error');
  Object.assign(driverError, {
    code: '23514',
    constraint: 'url_check',
    table: 'webhook_endpoints',
    detail: `Failing row contains (7, ${WEBHOOK_SECRET}, ${KEY_HASH}).`,
  });
  return new QueryFailedError(
    'INSERT INTO "webhook_endpoints"("id", "secret", "url")\n      VALUES ($1, $2, $3)',
    ['7', WEBHOOK_SECRET, KEY_HASH],
    driverError,
  );
}

describe('describeError', () => {
  const cases: Array<[name: string, error: unknown, expected: Partial<ErrorDescription>]> = [
    [
      'a failed query: code, message, constraint, table and SQL text, never parameters or the quoted row',
      checkViolation(),
      {
        type: 'QueryFailedError',
        code: '23514',
        constraint: 'url_check',
        table: 'webhook_endpoints',
        message: 'new row for relation "webhook_endpoints" violates check constraint "url_check"',
        query: 'INSERT INTO "webhook_endpoints"("id", "secret", "url") VALUES ($1, $2, $3)',
      },
    ],
    [
      'the same error as pino-http hands it over (the standard serializer’s copy)',
      stdSerializers.err(checkViolation()),
      { type: 'QueryFailedError', code: '23514' },
    ],
    ['a plain error', new TypeError('boom'), { type: 'TypeError', message: 'boom' }],
    [
      'an error with a status',
      Object.assign(new Error('too big'), { code: 'FST_ERR_CTP_BODY_TOO_LARGE', statusCode: 413 }),
      { code: 'FST_ERR_CTP_BODY_TOO_LARGE', statusCode: 413 },
    ],
    ['a secret in a message', new Error(`bad key pyl_abcdef123 and ${WEBHOOK_SECRET}`), { message: 'bad key [REDACTED] and [REDACTED]' }],
    ['a huge message', new Error('m'.repeat(400_000)), { message: `${'m'.repeat(1_000)}… [truncated 399000 chars]` }],
    ['a thrown string', 'just text', { type: 'string', message: 'just text' }],
    ['a cause, described the same way', new Error('outer', { cause: checkViolation() }), { message: 'outer' }],
  ];
  for (const [name, error, expected] of cases) {
    it(`describes ${name}`, () => {
      const description = describeError(error);
      for (const [field, value] of Object.entries(expected)) assert.deepEqual(description[field as keyof ErrorDescription], value, field);
      const text = JSON.stringify(description);
      assert.doesNotMatch(text, /whsec_|pyl_|Failing row|aaaaaaaaaaaaaaaa/);
      assert.ok(text.length < 6_000, `${text.length} chars`);
    });
  }

  it('keeps the stack frames but not the first stack line, which repeats the message', () => {
    const description = describeError(new Error(`x${WEBHOOK_SECRET}`));
    assert.match(description.stack ?? '', /^ {4}at /);
  });
});
