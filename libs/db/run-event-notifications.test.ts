import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseAnnouncement } from './run-event-notifications';

describe('run event announcements', () => {
  const runId = '6e6e8d3d-39e6-49c6-9ac4-b7fb5e9df8e5';

  it('read the run and the seq the trigger announces', () => {
    assert.deepEqual(parseAnnouncement(`${runId}:1`), { runId, seq: 1 });
    assert.deepEqual(parseAnnouncement(`${runId.toUpperCase()}:42`), { runId, seq: 42 });
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
  });
});
