import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KeyRequestCount } from '@pylon/usage';
import { KEY_REQUEST_RETENTION_DAYS, KeyRequestCounter, type KeyRequestSink } from './api-key-usage-counter';

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 0, 10, 12, 0, 0);

class FakeSink implements KeyRequestSink {
  writes: KeyRequestCount[][] = [];
  deletedBefore: Date[] = [];
  failing = false;

  async addKeyRequests(counts: KeyRequestCount[]): Promise<void> {
    await Promise.resolve();
    if (this.failing) throw new Error('database unavailable');
    this.writes.push(counts.map((count) => ({ ...count })));
  }

  async deleteKeyRequestsBefore(before: Date): Promise<number> {
    await Promise.resolve();
    this.deletedBefore.push(before);
    return 0;
  }

  /** Every request written, by `key@hour`. */
  totals(): Record<string, number> {
    const totals: Record<string, number> = {};
    for (const count of this.writes.flat()) {
      const slot = `${count.keyId}@${count.hour.toISOString()}`;
      totals[slot] = (totals[slot] ?? 0) + count.requests;
    }
    return totals;
  }
}

describe('KeyRequestCounter', () => {
  it('sums requests per key and hour, and writes them all in one call', async () => {
    const sink = new FakeSink();
    const counter = new KeyRequestCounter(sink, () => T0);
    for (let i = 0; i < 3; i++) counter.record('org-a', 'key-1', T0 + i * 1000);
    counter.record('org-a', 'key-1', T0 + HOUR + 5);
    counter.record('org-b', 'key-2', T0 + 59 * 60_000);
    assert.equal(counter.unwritten, 5);
    await counter.flush();
    assert.equal(sink.writes.length, 1);
    assert.deepEqual(
      sink.writes[0]!.map((count) => [count.orgId, count.keyId, count.hour.getTime(), count.requests]),
      [
        ['org-a', 'key-1', T0, 3],
        ['org-a', 'key-1', T0 + HOUR, 1],
        ['org-b', 'key-2', T0, 1],
      ],
    );
    assert.equal(counter.unwritten, 0);
  });

  it('writes nothing when nothing was counted', async () => {
    const sink = new FakeSink();
    const counter = new KeyRequestCounter(sink, () => T0);
    await counter.flush();
    assert.deepEqual(sink.writes, []);
  });

  it('a failed flush keeps its counts: the next flush writes them with what came meanwhile, none lost or doubled', async () => {
    const sink = new FakeSink();
    const counter = new KeyRequestCounter(sink, () => T0);
    counter.record('org-a', 'key-1', T0);
    counter.record('org-a', 'key-1', T0);
    sink.failing = true;
    await assert.rejects(counter.flush(), /database unavailable/);
    assert.equal(counter.unwritten, 2);
    counter.record('org-a', 'key-1', T0 + 10);
    counter.record('org-a', 'key-3', T0 + 10);
    await assert.rejects(counter.flush(), /database unavailable/);
    sink.failing = false;
    await counter.flush();
    assert.deepEqual(sink.totals(), { [`key-1@${new Date(T0).toISOString()}`]: 3, [`key-3@${new Date(T0).toISOString()}`]: 1 });
    await counter.flush();
    assert.deepEqual(sink.totals(), { [`key-1@${new Date(T0).toISOString()}`]: 3, [`key-3@${new Date(T0).toISOString()}`]: 1 });
  });

  it('requests counted while a flush is under way go to the next flush; concurrent flushes take turns', async () => {
    const sink = new FakeSink();
    const counter = new KeyRequestCounter(sink, () => T0);
    counter.record('org-a', 'key-1', T0);
    const first = counter.flush();
    counter.record('org-a', 'key-1', T0);
    const second = counter.flush();
    await Promise.all([first, second]);
    assert.deepEqual(
      sink.writes.map((batch) => batch.map((count) => count.requests)),
      [[1], [1]],
    );
  });

  it(`deletes counts older than ${KEY_REQUEST_RETENTION_DAYS} days at most once an hour`, async () => {
    const sink = new FakeSink();
    let now = T0;
    const counter = new KeyRequestCounter(sink, () => now);
    await counter.flush();
    now += 60_000;
    await counter.flush();
    now += HOUR;
    await counter.flush();
    assert.deepEqual(
      sink.deletedBefore.map((date) => date.getTime()),
      [T0 - KEY_REQUEST_RETENTION_DAYS * 24 * HOUR, T0 + 60_000 + HOUR - KEY_REQUEST_RETENTION_DAYS * 24 * HOUR],
    );
  });
});
