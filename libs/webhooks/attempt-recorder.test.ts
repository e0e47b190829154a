import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AttemptRecord } from './repositories/webhook-delivery.repository';
import { AttemptRecorder } from './attempt-recorder';

const record = (statusCode: number | null): AttemptRecord => ({
  startedAt: new Date(),
  durationMs: 1,
  statusCode,
  responseExcerpt: null,
  error: statusCode === null ? 'connection refused' : null,
  requestHeaders: null,
  responseHeaders: null,
  status: statusCode === 200 ? 'delivered' : 'pending',
  nextAttemptAt: null,
});

const ORG = '00000000-0000-4000-8000-000000000001';

describe('AttemptRecorder', () => {
  it('writes the attempts that finish together in one statement, and the later ones in the next', async () => {
    const writes: string[][] = [];
    let release: () => void = () => {};
    const recorder = new AttemptRecorder(async (attempts) => {
      writes.push(attempts.map(({ deliveryId }) => deliveryId));
      if (writes.length === 1) await new Promise<void>((resolve) => (release = resolve));
    });
    const first = ['a', 'b', 'c'].map((id) => recorder.record(ORG, id, record(null)));
    await new Promise((resolve) => setImmediate(resolve));
    const later = ['d', 'e'].map((id) => recorder.record(ORG, id, record(200)));
    release();
    await Promise.all([...first, ...later]);
    assert.deepEqual(writes, [
      ['a', 'b', 'c'],
      ['d', 'e'],
    ]);
  });

  it('hands each attempt to the write with its organisation', async () => {
    const written: Array<[string, string]> = [];
    const recorder = new AttemptRecorder(
      async (attempts) => void written.push(...attempts.map(({ orgId, deliveryId }): [string, string] => [orgId, deliveryId])),
    );
    const other = '00000000-0000-4000-8000-000000000002';
    await Promise.all([recorder.record(ORG, 'a', record(null)), recorder.record(other, 'b', record(null))]);
    assert.deepEqual(written, [
      [ORG, 'a'],
      [other, 'b'],
    ]);
  });

  it('never puts two attempts of one delivery in one statement', async () => {
    const writes: string[][] = [];
    const recorder = new AttemptRecorder(async (attempts) => void writes.push(attempts.map(({ deliveryId }) => deliveryId)));
    await Promise.all([recorder.record(ORG, 'a', record(null)), recorder.record(ORG, 'a', record(200)), recorder.record(ORG, 'b', record(null))]);
    assert.deepEqual(writes, [['a', 'b'], ['a']]);
  });

  it('fails the callers whose write failed, and goes on with the others', async () => {
    let calls = 0;
    const recorder = new AttemptRecorder(async () => {
      calls++;
      if (calls === 1) throw new Error('database gone');
    });
    const failed = recorder.record(ORG, 'a', record(null));
    await assert.rejects(failed, /database gone/);
    await recorder.record(ORG, 'b', record(null));
    assert.equal(calls, 2);
  });
});
