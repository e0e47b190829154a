import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { announcedRunId, parseAnnouncement } from './run-event-notifications';

describe('run event announcements', () => {
  const runId = '6e6e8d3d-39e6-49c6-9ac4-b7fb5e9df8e5';
  const carried = JSON.stringify({ type: 'output_delta', data: { text: 'a:b\nc' }, created_at: '2026-11-28T10:00:00.123956+01:00' });

  it('read the run and the seq the trigger announces', () => {
    assert.deepEqual(parseAnnouncement(`${runId}:1`), { runId, seq: 1 });
    assert.deepEqual(parseAnnouncement(`${runId.toUpperCase()}:42`), { runId, seq: 42 });
  });

  it('read the event an announcement carries, as the log returns it (its time to the millisecond)', () => {
    assert.deepEqual(parseAnnouncement(`${runId}:7:${carried}`), {
      runId,
      seq: 7,
      event: { seq: 7, type: 'output_delta', data: { text: 'a:b\nc' }, createdAt: new Date('2026-11-28T09:00:00.123Z') },
    });
    assert.equal(announcedRunId(`${runId.toUpperCase()}:7:${carried}`), runId);
  });

  it('keep the announcement of a carried event that does not read as one: its follower reads the log', () => {
    for (const event of [
      '{',
      '{}',
      '{"type":"x","data":[],"created_at":"2026-11-28T10:00:00Z"}',
      '{"type":"x","data":{},"created_at":"yesterday"}',
      '{"type":1,"data":{},"created_at":"2026-11-28T10:00:00Z"}',
    ]) {
      assert.deepEqual(parseAnnouncement(`${runId}:3:${event}`), { runId, seq: 3 }, event);
    }
  });

  it('ignore anything else on the channel, so no follower is woken without a seq to wait past', () => {
    for (const payload of [
      undefined,
      '',
      runId,
      `${runId}:`,
      `${runId}:0`,
      `${runId}:-3`,
      `${runId}:abc`,
      `${runId}:1.5`,
      `${runId}:99999999999999999999`,
      `not-a-run:5`,
      `${runId}:5:extra`,
    ]) {
      assert.equal(parseAnnouncement(payload), null, String(payload));
    }
    assert.equal(announcedRunId(runId), null);
    assert.equal(announcedRunId(undefined), null);
  });
});
