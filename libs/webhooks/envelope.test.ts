import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import type { PylonEvent } from '@pylon/db';
import { attemptHeaders, webhookRequest } from './envelope';
import { boundedHeaders, RESPONSE_HEADER_VALUE_CHARS, RESPONSE_HEADERS_KEPT } from './sender';

const secret = `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`;
const event = {
  id: '6e6e8d3d-0000-4000-8000-000000000001',
  orgId: '6e6e8d3d-0000-4000-8000-000000000002',
  type: 'agent_run.succeeded',
  resourceId: '6e6e8d3d-0000-4000-8000-000000000003',
  data: { run_id: '6e6e8d3d-0000-4000-8000-000000000003', output: 'héllo' },
  createdAt: new Date('2025-01-02T03:04:05.678Z'),
} as PylonEvent;

describe('a webhook request', () => {
  it('is the envelope with the headers every attempt shares; the message id is the event id', () => {
    const request = webhookRequest(event);
    assert.deepEqual(JSON.parse(request.body), { id: event.id, type: event.type, created_at: '2025-01-02T03:04:05.678Z', data: event.data });
    assert.deepEqual(request.headers, { 'content-type': 'application/json', 'user-agent': 'Pylon-Webhooks/1.0', 'webhook-id': event.id });
  });

  it("an attempt's headers carry its timestamp and a signature that verifies, the body's byte length, and never the secret", () => {
    const request = webhookRequest(event);
    const headers = attemptHeaders(request, new Date(), [secret]);
    assert.equal(headers['content-length'], String(Buffer.byteLength(request.body)));
    assert.doesNotThrow(() => new Webhook(secret).verify(request.body, headers));
    assert.ok(!JSON.stringify(headers).includes(secret.slice('whsec_'.length)));
  });
});

describe("an answer's headers as the log keeps them", () => {
  it('at most 30, each value cut to 500 characters, repeated ones joined', () => {
    const many = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`x-h${i}`, 'v'.repeat(i === 0 ? 2_000 : 3)]));
    const kept = boundedHeaders({ ...many, 'set-cookie': ['a=1', 'b=2'] });
    assert.equal(Object.keys(kept).length, RESPONSE_HEADERS_KEPT);
    assert.equal(kept['x-h0']!.length, RESPONSE_HEADER_VALUE_CHARS);
    assert.deepEqual(boundedHeaders({ 'set-cookie': ['a=1', 'b=2'], 'x-empty': undefined }), { 'set-cookie': 'a=1, b=2' });
  });
});
