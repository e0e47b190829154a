import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PylonError } from '@pylon/contracts';
import { createOnce, type CreateOnceSteps } from './index';

interface Resource {
  id: string;
  requestHash: string | null;
  waiting: boolean;
}

/** An in-memory store behind the steps, recording what createOnce asked of it. */
function store(options: { earlier?: Resource; raceWinner?: Resource; startFails?: boolean } = {}) {
  const calls: string[] = [];
  let byKey: Resource | null = options.earlier ?? null;
  const steps: CreateOnceSteps<Resource> = {
    findByKey: async () => (calls.push('find'), byKey),
    admit: async () => void calls.push('admit'),
    insert: async () => {
      calls.push('insert');
      if (options.raceWinner) {
        byKey = options.raceWinner;
        return null;
      }
      return (byKey = { id: 'new', requestHash: 'hash', waiting: true });
    },
    work: {
      awaitsStart: (resource) => resource.waiting,
      start: async (resource) => {
        calls.push(`start ${resource.id}`);
        if (options.startFails) throw new Error('temporal down');
      },
      undo: async (resource) => (calls.push(`undo ${resource.id}`), new Error('taken back')),
    },
  };
  return { steps, calls };
}

describe('createOnce', () => {
  it('creates and starts a new resource after admitting it', async () => {
    const { steps, calls } = store();
    assert.equal((await createOnce('key', 'hash', steps)).id, 'new');
    assert.deepEqual(calls, ['find', 'admit', 'insert', 'start new']);
  });

  it('answers a repeated key with what it created, starting it again only if it still waits', async () => {
    const waiting = store({ earlier: { id: 'old', requestHash: 'hash', waiting: true } });
    assert.equal((await createOnce('key', 'hash', waiting.steps)).id, 'old');
    assert.deepEqual(waiting.calls, ['find', 'start old']);
    const started = store({ earlier: { id: 'old', requestHash: 'hash', waiting: false } });
    await createOnce('key', 'hash', started.steps);
    assert.deepEqual(started.calls, ['find']);
  });

  it('refuses a repeated key with another request: 409 idempotency_key_reused', async () => {
    const { steps } = store({ earlier: { id: 'old', requestHash: 'other', waiting: false } });
    await assert.rejects(
      createOnce('key', 'hash', steps),
      (error: unknown) => error instanceof PylonError && error.code === 'idempotency_key_reused',
    );
  });

  it('answers the winner of a race for one key', async () => {
    const { steps, calls } = store({ raceWinner: { id: 'winner', requestHash: 'hash', waiting: false } });
    assert.equal((await createOnce('key', 'hash', steps)).id, 'winner');
    assert.deepEqual(calls, ['find', 'admit', 'insert', 'find']);
  });

  it('takes the resource back when its work cannot start, and throws what undo says', async () => {
    const { steps, calls } = store({ startFails: true });
    await assert.rejects(createOnce(null, 'hash', steps), /taken back/);
    assert.deepEqual(calls, ['admit', 'insert', 'start new', 'undo new']);
  });
});
