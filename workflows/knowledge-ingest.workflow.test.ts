import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import {
  EXTRACTION_FAILURE,
  type EventInput,
  type IngestDocumentInput,
  type KnowledgeIngestionActivities,
  type KnowledgeVectorIndexActivities,
} from '@pylon/contracts';
import { createTimeSkippingEnv, startWorkflowWorkers } from '../test/support/time-skipping';
import { knowledgeIngestWorkflow } from './knowledge-ingest.workflow';
import { knowledgeVectorIndexWorkflow } from './knowledge-vector-index.workflow';

type Step = keyof KnowledgeIngestionActivities | keyof KnowledgeVectorIndexActivities;

/** One activity attempt: which, with what, when it started (the server's time). */
interface Attempt {
  step: Step;
  atMs: number;
  attempt: number;
  batchIndex?: number;
  reason?: string;
}

/** How a document's activities behave: `behaviour[step]` answers attempt n (1-based) of that step (and batch). */
type Behaviour = Partial<Record<Step, (attempt: number, input: { batchIndex?: number }) => Promise<unknown>>>;

const published = (chunkCount: number) => ({ kind: 'published' as const, published: true, chunkCount, eventId: `ready:${chunkCount}` });

/**
 * The ingestion workflow's story with its activities scripted, on the time-skipping test server: one step
 * or batches, retries with back-off, a heartbeat timeout, refusals that are not retried, and the vector
 * index build's retries. Chunking, embedding and publishing themselves are covered end to end elsewhere.
 */
describe('knowledge ingestion and vector index workflows (time skipping)', () => {
  const taskQueue = `ingest-test-${randomUUID()}`;
  const behaviours = new Map<string, Behaviour>();
  const attempts = new Map<string, Attempt[]>();
  const announced: EventInput[] = [];
  let env: TestWorkflowEnvironment;
  let stopWorkers: (() => Promise<void>) | undefined;

  /** Each activity records its attempt, then does what the document's script says (by default: succeed plainly). */
  function scripted<A extends { docId?: string; orgId: string; batchIndex?: number }>(step: Step, fallback: (input: A) => unknown) {
    return async (input: A & { reason?: string }) => {
      const key = input.docId ?? input.orgId;
      const info = Context.current().info;
      const mine = attempts.get(key)!;
      mine.push({
        step,
        // When the attempt starts, at the test server's time (the worker's own clock does not skip).
        atMs: await env.currentTimeMs(),
        attempt: info.attempt,
        ...(input.batchIndex !== undefined ? { batchIndex: input.batchIndex } : {}),
        ...(input.reason ? { reason: input.reason } : {}),
      });
      const behave = behaviours.get(key)?.[step];
      return behave ? behave(info.attempt, input) : fallback(input);
    };
  }

  const activities: KnowledgeIngestionActivities & KnowledgeVectorIndexActivities = {
    extractDocumentText: scripted('extractDocumentText', () => ({ exists: true, extracted: true })),
    ingestInOneStep: scripted('ingestInOneStep', () => published(3)),
    prepareChunks: scripted('prepareChunks', () => ({ exists: true, chunkCount: 0, batchCount: 0 })),
    embedChunkBatch: scripted('embedChunkBatch', () => undefined),
    publishDocument: scripted('publishDocument', () => ({ published: true, chunkCount: 0, eventId: 'ready' })),
    markDocumentFailed: scripted('markDocumentFailed', () => 'failed'),
    buildVectorIndex: scripted('buildVectorIndex', () => ({ status: 'ready', chunks: 1, buildMs: 1 })),
    markVectorIndexFailed: scripted('markVectorIndexFailed', () => undefined),
  } as KnowledgeIngestionActivities & KnowledgeVectorIndexActivities;

  before(async () => {
    Runtime.install({ logger: new DefaultLogger('WARN') });
    env = await createTimeSkippingEnv();
    stopWorkers = await startWorkflowWorkers(env, taskQueue, activities, announced);
  });
  after(async () => {
    await stopWorkers?.();
    await env?.teardown();
  });

  /** Ingests one document scripted by `behaviour`; its attempts with their times in seconds since the start. */
  async function ingest(behaviour: Behaviour, options: Partial<IngestDocumentInput> = {}) {
    const document: IngestDocumentInput = { docId: randomUUID(), orgId: randomUUID(), revision: 1, ...options };
    behaviours.set(document.docId, behaviour);
    attempts.set(document.docId, []);
    const handle = await env.client.workflow.start(knowledgeIngestWorkflow, {
      taskQueue,
      workflowId: `kb-ingest:${document.docId}`,
      args: [document],
    });
    const startedAtMs = (await handle.describe()).startTime.getTime();
    const outcome = await handle.result();
    const events = announced.filter((event) => event.orgId === document.orgId).map((event) => event.eventId);
    return { outcome, events, attempts: attempts.get(document.docId)!.map((a) => ({ ...a, atS: (a.atMs - startedAtMs) / 1000 })) };
  }

  const steps = (list: Array<{ step: Step }>) => list.map((a) => a.step);
  const near = (actual: number, expected: number, what: string) =>
    assert.ok(Math.abs(actual - expected) <= 0.5, `${what}: ${actual} s, expected about ${expected} s`);

  it('a document that fits the batches run at once is ingested in one step and announced once', async () => {
    const { outcome, events, attempts: tried } = await ingest({});
    assert.deepEqual(outcome, { status: 'ready', chunkCount: 3 });
    assert.deepEqual(steps(tried), ['ingestInOneStep']);
    assert.deepEqual(events, ['ready:3']);
  });

  it('retries a step that fails for a while (a database restart, an embedding 5xx) with back-off: +1 s, +2 s, then it succeeds', async () => {
    const { outcome, attempts: tried } = await ingest({
      ingestInOneStep: async (attempt) => {
        if (attempt < 3) throw new Error('connection terminated unexpectedly');
        return published(2);
      },
    });
    assert.deepEqual(outcome, { status: 'ready', chunkCount: 2 });
    assert.deepEqual(
      tried.map((a) => a.attempt),
      [1, 2, 3],
    );
    near(tried[1]!.atS, 1, 'the second attempt');
    near(tried[2]!.atS, 3, 'the third attempt');
  });

  it('an attempt that stops heartbeating (its worker died) is retried once its 10 s heartbeat timeout passes', async () => {
    const { outcome, attempts: tried } = await ingest({
      ingestInOneStep: async (attempt) => {
        // A hung attempt: no heartbeat and no answer until long after the server gave up on it.
        if (attempt === 1) await new Promise((resolve) => setTimeout(resolve, 13_000));
        return published(1);
      },
    });
    assert.deepEqual(outcome, { status: 'ready', chunkCount: 1 });
    assert.deepEqual(
      tried.map((a) => a.attempt),
      [1, 2],
    );
    // Timed out at 10 s, retried after the 1 s back-off; the whole start-to-close timeout (2 min) was not waited for.
    near(tried[1]!.atS, 11, 'the retry');
  });

  it('a document too large for one step goes through drafts: its batches 4 at a time, a failing batch retried alone, then published', async () => {
    const {
      outcome,
      events,
      attempts: tried,
    } = await ingest({
      ingestInOneStep: async () => ({ kind: 'batched' }),
      prepareChunks: async () => ({ exists: true, chunkCount: 60, batchCount: 6 }),
      embedChunkBatch: async (attempt, input) => {
        if (input.batchIndex === 5 && attempt === 1) throw new Error('429 from the embedding provider');
      },
      publishDocument: async () => ({ published: true, chunkCount: 60, eventId: 'ready:60' }),
    });
    assert.deepEqual(outcome, { status: 'ready', chunkCount: 60 });
    const batches = tried.filter((a) => a.step === 'embedChunkBatch');
    assert.deepEqual(batches.map((a) => `${a.batchIndex}#${a.attempt}`).sort(), ['0#1', '1#1', '2#1', '3#1', '4#1', '5#1', '5#2']);
    // The second group starts only once the first has finished.
    const firstGroupEnds = Math.max(...batches.filter((a) => a.batchIndex! < 4).map((a) => a.atS));
    assert.ok(batches.filter((a) => a.batchIndex! >= 4).every((a) => a.atS >= firstGroupEnds));
    assert.deepEqual(steps(tried).at(-1), 'publishDocument');
    assert.deepEqual(events, ['ready:60']);
  });

  it("does not retry an embedding provider's refusal: the document fails at once with its message, announced once", async () => {
    const {
      outcome,
      events,
      attempts: tried,
    } = await ingest({
      ingestInOneStep: async () => {
        throw ApplicationFailure.nonRetryable('the embedding provider refused the key', 'EmbeddingRejected');
      },
    });
    assert.deepEqual(outcome, { status: 'failed', reason: 'the embedding provider refused the key' });
    assert.deepEqual(steps(tried), ['ingestInOneStep', 'markDocumentFailed']);
    assert.equal(tried[1]!.reason, 'the embedding provider refused the key');
    assert.deepEqual(events, ['failed']);
  });

  it('an uploaded file whose text can never be extracted fails after one attempt; one that fails otherwise is retried', async () => {
    const hopeless = await ingest(
      {
        extractDocumentText: async () => {
          throw ApplicationFailure.nonRetryable('the PDF is protected by a password', EXTRACTION_FAILURE);
        },
      },
      { fromFile: true },
    );
    assert.deepEqual(hopeless.outcome, { status: 'failed', reason: 'the PDF is protected by a password' });
    assert.deepEqual(steps(hopeless.attempts), ['extractDocumentText', 'markDocumentFailed']);

    const flaky = await ingest(
      {
        extractDocumentText: async (attempt) => {
          if (attempt === 1) throw new Error('ENOENT: the media volume was not mounted yet');
          return { exists: true, extracted: true };
        },
      },
      { fromFile: true },
    );
    assert.deepEqual(flaky.outcome, { status: 'ready', chunkCount: 3 });
    assert.deepEqual(steps(flaky.attempts), ['extractDocumentText', 'extractDocumentText', 'ingestInOneStep']);
    near(flaky.attempts[1]!.atS, 2, 'the extraction retry');
  });

  it('a vector index build that keeps failing is retried 5 times with back-off (10, 20, 40, 80 s), then recorded as failed with its reason', async () => {
    const orgId = randomUUID();
    behaviours.set(orgId, {
      buildVectorIndex: async () => {
        throw new Error('could not extend file: No space left on device');
      },
    });
    attempts.set(orgId, []);
    const handle = await env.client.workflow.start(knowledgeVectorIndexWorkflow, {
      taskQueue,
      workflowId: `kb-vector-index:${orgId}`,
      args: [{ orgId }],
    });
    const startedAtMs = (await handle.describe()).startTime.getTime();
    assert.deepEqual(await handle.result(), { status: 'failed', reason: 'could not extend file: No space left on device' });
    const tried = attempts.get(orgId)!.map((a) => ({ ...a, atS: (a.atMs - startedAtMs) / 1000 }));
    assert.deepEqual(steps(tried), [...Array<Step>(5).fill('buildVectorIndex'), 'markVectorIndexFailed']);
    [0, 10, 30, 70, 150].forEach((expected, i) => near(tried[i]!.atS, expected, `build attempt ${i + 1}`));
    assert.equal(tried[5]!.reason, 'could not extend file: No space left on device');
  });
});
