import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NotFoundException, type ArgumentsHost } from '@nestjs/common';
import { ErrorCode } from '@pylon/contracts';
import { LimitExceededError, RetryLaterError } from '@pylon/limits';
import { ApiError } from './api-error';
import { ErrorFilter } from './error.filter';

function respond(exception: unknown): { status: number; body: unknown; headers: Record<string, string> } {
  const sent = { status: 0, body: undefined as unknown, headers: {} as Record<string, string> };
  const reply = {
    header(name: string, value: string) {
      sent.headers[name.toLowerCase()] = value;
      return reply;
    },
    status(code: number) {
      sent.status = code;
      return reply;
    },
    send(body: string) {
      sent.body = JSON.parse(body);
      return reply;
    },
  };
  const host = {
    switchToHttp: () => ({ getRequest: () => ({ id: 'req-123', method: 'GET', url: '/x' }), getResponse: () => reply }),
  } as unknown as ArgumentsHost;
  new ErrorFilter().catch(exception, host);
  return sent;
}

describe('ErrorFilter', () => {
  it('maps typed errors to their status with exactly {"error": code}, the reason in Error-Detail', () => {
    const sent = respond(new ApiError(ErrorCode.InsufficientScope, 'lacks runs:create'));
    assert.equal(sent.status, 403);
    assert.deepEqual(sent.body, { error: 'insufficient_scope' });
    assert.equal(sent.headers['error-detail'], 'lacks runs:create');
  });

  it('sends the headers an error carries: 429 rate_limited with Retry-After and RateLimit-*', () => {
    const sent = respond(
      new ApiError(ErrorCode.RateLimited, 'too many', {
        'Retry-After': '1',
        'RateLimit-Limit': '5',
        'RateLimit-Remaining': '0',
        'RateLimit-Reset': '1',
      }),
    );
    assert.equal(sent.status, 429);
    assert.deepEqual(sent.body, { error: 'rate_limited' });
    assert.equal(sent.headers['retry-after'], '1');
    assert.equal(sent.headers['ratelimit-limit'], '5');
    assert.equal(sent.headers['ratelimit-remaining'], '0');
  });

  it('maps what waiting cures to 429 rate_limited with Retry-After, and a reached count cap to 409 limit_exceeded', () => {
    const windowed = respond(new RetryLaterError('this organisation may send 2 test events per minute', 42));
    assert.equal(windowed.status, 429);
    assert.deepEqual(windowed.body, { error: 'rate_limited' });
    assert.equal(windowed.headers['retry-after'], '42');
    assert.equal(windowed.headers['error-detail'], 'this organisation may send 2 test events per minute');
    const count = respond(new LimitExceededError('this organisation has 20 webhook endpoints, its limit is 20'));
    assert.equal(count.status, 409);
    assert.equal(count.headers['retry-after'], undefined);
  });

  it('turns anything unexpected into a 500 internal_error without leaking the message or stack', () => {
    const sent = respond(new TypeError('Cannot read properties of undefined (secret internals)'));
    assert.equal(sent.status, 500);
    assert.deepEqual(sent.body, { error: 'internal_error' });
    assert.equal(sent.headers['error-detail'], undefined);
  });

  it("maps Fastify's own errors: body too large → 413, unknown route → 404", () => {
    assert.deepEqual(respond(Object.assign(new Error('too big'), { code: 'FST_ERR_CTP_BODY_TOO_LARGE', statusCode: 413 })).body, {
      error: 'payload_too_large',
    });
    assert.equal(respond(new NotFoundException()).status, 404);
    assert.deepEqual(respond(new NotFoundException()).body, { error: 'not_found' });
  });

  const fastifyErrors: Array<[fastifyCode: string, statusCode: number, status: number, code: string]> = [
    ['FST_ERR_CTP_INVALID_MEDIA_TYPE', 415, 415, 'unsupported_media_type'],
    ['FST_ERR_CTP_INVALID_CONTENT_LENGTH', 400, 400, 'invalid_request'],
    ['FST_ERR_BAD_URL', 400, 400, 'invalid_request'],
    ['FST_ERR_MAX_PARAM_LENGTH', 414, 414, 'uri_too_long'],
    ['FST_ERR_SOMETHING_ELSE', 416, 400, 'invalid_request'],
  ];
  for (const [fastifyCode, statusCode, status, code] of fastifyErrors) {
    it(`maps ${fastifyCode} (${statusCode}) to ${status} ${code}, quoting no input in Error-Detail`, () => {
      const sent = respond(Object.assign(new Error("'/api/v1/agent-runs/%zz' is bad"), { code: fastifyCode, statusCode }));
      assert.equal(sent.status, status);
      assert.deepEqual(sent.body, { error: code });
      if (fastifyCode === 'FST_ERR_BAD_URL' || fastifyCode === 'FST_ERR_MAX_PARAM_LENGTH') assert.doesNotMatch(sent.headers['error-detail']!, /%zz/);
    });
  }
});
