import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { ApplicationFailure } from '@temporalio/common';
import { WorkflowFailedError } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import {
  VIDEO_CANCELLED_REASON,
  type EventInput,
  type VideoActivities,
  type VideoPollResult,
  type VideoSubmission,
  type VideoWorkflowInput,
} from '@pylon/contracts';
import { createTimeSkippingEnv, startWorkflowWorkers } from '../test/support/time-skipping';
import { videoGenerationWorkflow } from './video-generation.workflow';

/** What the provider does for one generation, and what the workflow asked of it, at which server time. */
interface Script {
  submission: VideoSubmission;
  /** The answer to poll i (the last one repeats). */
  polls: VideoPollResult[];
  /** Thrown by the first `submitFailures` submits. */
  submitFailures?: { count: number; error: () => Error };
  calls: Array<{ name: keyof VideoActivities; atMs: number; reason?: string }>;
}

/**
 * The video workflow's story with its activities scripted, on the time-skipping test server: the poll
 * schedule, the overall timeout and its refund, a provider's refusal, a cancel mid-poll, and the retries of
 * a failing submit. The provider adapters and the ledger are covered end to end elsewhere.
 */
describe('videoGenerationWorkflow (time skipping)', () => {
  const taskQueue = `video-test-${randomUUID()}`;
  const scripts = new Map<string, Script>();
  const announced: EventInput[] = [];
  let env: TestWorkflowEnvironment;
  let stopWorkers: (() => Promise<void>) | undefined;

  const scriptOf = (input: VideoWorkflowInput): Script => scripts.get(input.generationId)!;
  /** Each call as it starts, at the test server's time (the worker's own clock does not skip). */
  const record = async (input: VideoWorkflowInput, name: keyof VideoActivities, reason?: string) =>
    scriptOf(input).calls.push({ name, atMs: await env.currentTimeMs(), ...(reason ? { reason } : {}) });

  const activities: VideoActivities = {
    async submitVideo(input) {
      await record(input, 'submitVideo');
      const script = scriptOf(input);
      if (script.submitFailures && script.submitFailures.count > 0) {
        script.submitFailures.count--;
        throw script.submitFailures.error();
      }
      return script.submission;
    },
    async pollVideo(input) {
      await record(input, 'pollVideo');
      const script = scriptOf(input);
      const polls = script.calls.filter((call) => call.name === 'pollVideo').length;
      return script.polls[Math.min(polls, script.polls.length) - 1]!;
    },
    async renderVideo(input) {
      await record(input, 'renderVideo');
      return { state: 'completed', eventId: `completed:${input.generationId}` };
    },
    async failVideo(input) {
      await record(input, 'failVideo', input.reason);
      // Exactly once, as the ledger does it: a second call finds the generation final and has no event.
      return scriptOf(input).calls.filter((call) => call.name === 'failVideo').length === 1 ? `failed:${input.generationId}` : null;
    },
    async cancelVideo(input) {
      await record(input, 'cancelVideo');
    },
  };

  before(async () => {
    Runtime.install({ logger: new DefaultLogger('WARN') });
    env = await createTimeSkippingEnv();
    stopWorkers = await startWorkflowWorkers(env, taskQueue, activities, announced);
  });
  after(async () => {
    await stopWorkers?.();
    await env?.teardown();
  });

  async function generate(script: Omit<Script, 'calls'>, during?: (handle: { cancel(): Promise<unknown> }) => Promise<void>) {
    const input: VideoWorkflowInput = { generationId: randomUUID(), orgId: randomUUID() };
    const calls: Script['calls'] = [];
    scripts.set(input.generationId, { ...script, calls });
    const handle = await env.client.workflow.start(videoGenerationWorkflow, { taskQueue, workflowId: `video:${input.generationId}`, args: [input] });
    const startedAtMs = (await handle.describe()).startTime.getTime();
    await during?.(handle);
    const outcome = await handle.result().catch((error: unknown) => error);
    const events = announced.filter((event) => event.orgId === input.orgId).map((event) => event.eventId);
    return { input, outcome, events, calls: calls.map((call) => ({ ...call, atS: Math.round((call.atMs - startedAtMs) / 100) / 10 })) };
  }

  /** When each poll started, in seconds after the submit started (the first wait begins once it is done). */
  const pollTimes = (calls: Array<{ name: string; atS: number }>) => {
    const submitted = calls.find((call) => call.name === 'submitVideo')!.atS;
    return calls.filter((call) => call.name === 'pollVideo').map((call) => call.atS - submitted);
  };
  /**
   * Server times in seconds since the start. Each wait begins once the step before it is done, so a step
   * is checked against the one before it as it actually ran (the real time activities take must not add
   * up across ten polls); a deadline (`absolute`) is checked against the start.
   */
  const assertTimes = (actual: number[], expected: number[], what: string, absolute: number[] = []) => {
    assert.equal(actual.length, expected.length, `${what}: ${JSON.stringify(actual)}`);
    actual.forEach((at, i) => {
      const due = i === 0 || absolute.includes(expected[i]!) ? expected[i]! : actual[i - 1]! + expected[i]! - expected[i - 1]!;
      assert.ok(Math.abs(at - due) <= 0.3, `${what}: ${JSON.stringify(actual)}, expected about ${JSON.stringify(expected)}`);
    });
  };

  it("polls a provider's job on a backing-off schedule (1 s, then ×1.5 up to 30 s) until it completes, and announces it once", async () => {
    const processing: VideoPollResult = { state: 'processing' };
    const { input, outcome, events, calls } = await generate({
      submission: { timeoutSeconds: 600 },
      polls: [...Array<VideoPollResult>(9).fill(processing), { state: 'completed', eventId: 'done' }],
    });
    assert.deepEqual(outcome, { state: 'completed' });
    // Waits of 1, 1.5, 2.25, 3.38, 5.06, 7.59, 11.39, 17.09, 25.63, 30 s: each poll after the previous one's wait.
    assertTimes(pollTimes(calls), [1, 2.5, 4.75, 8.13, 13.19, 20.78, 32.18, 49.27, 74.9, 104.9], 'polls');
    assert.ok(!calls.some((call) => call.name === 'failVideo'), 'nothing refunded');
    assert.deepEqual(events, ['done']);
    assert.equal(scripts.get(input.generationId)!.calls[0]!.name, 'submitVideo');
  });

  it('fails and refunds a job still running at its timeout, once, at the deadline', async () => {
    const { outcome, events, calls } = await generate({ submission: { timeoutSeconds: 60 }, polls: [{ state: 'processing' }] });
    assert.deepEqual(outcome, { state: 'failed', reason: 'the provider did not finish within 60 seconds' });
    // The last wait is cut to the deadline (10.7 s, not the 25.6 s back-off step).
    assertTimes(pollTimes(calls), [1, 2.5, 4.75, 8.13, 13.19, 20.78, 32.18, 49.27, 60], 'polls', [60]);
    const refunds = calls.filter((call) => call.name === 'failVideo');
    assert.deepEqual(
      refunds.map((call) => call.reason),
      ['the provider did not finish within 60 seconds'],
    );
    assertTimes(
      refunds.map((call) => call.atS),
      [60],
      'refund',
    );
    assert.equal(events.length, 1, 'the failure is announced once');
  });

  it("fails a job the provider reports failed with the provider's reason, and refunds it", async () => {
    const { outcome, calls } = await generate({
      submission: { timeoutSeconds: 600 },
      polls: [{ state: 'pending' }, { state: 'failed', reason: 'nsfw prompt' }],
    });
    assert.deepEqual(outcome, { state: 'failed', reason: 'nsfw prompt' });
    assertTimes(pollTimes(calls), [1, 2.5], 'polls');
    assert.deepEqual(
      calls.filter((call) => call.name === 'failVideo').map((call) => call.reason),
      ['nsfw prompt'],
    );
  });

  it('retries a submit that fails for a while (rate limit, 5xx) with back-off, then goes on', async () => {
    const { outcome, calls } = await generate({
      submission: { timeoutSeconds: 600 },
      polls: [{ state: 'completed', eventId: 'done' }],
      submitFailures: { count: 3, error: () => new Error('429 from the provider') },
    });
    assert.deepEqual(outcome, { state: 'completed' });
    // Attempts at +0, +2 s, +4 s (×2), +8 s (×2): Temporal's retry policy of the provider's activities.
    assertTimes(
      calls.filter((call) => call.name === 'submitVideo').map((call) => call.atS),
      [0, 2, 6, 14],
      'submit attempts',
    );
  });

  it("does not retry a provider's refusal: fails and refunds at once with its message", async () => {
    const { outcome, calls } = await generate({
      submission: { timeoutSeconds: 600 },
      polls: [],
      submitFailures: { count: 1, error: () => ApplicationFailure.nonRetryable('prompt refused by the provider', 'VideoProviderRejected') },
    });
    assert.deepEqual(outcome, { state: 'failed', reason: 'prompt refused by the provider' });
    assert.deepEqual(
      calls.map((call) => call.name),
      ['submitVideo', 'failVideo'],
    );
  });

  it("a cancel while polling stops the provider's job, then fails and refunds the generation as cancelled, once", async () => {
    const { outcome, events, calls } = await generate({ submission: { timeoutSeconds: 600 }, polls: [{ state: 'processing' }] }, async (handle) => {
      // Real time runs while the test does not await the result: the first polls happen, then the cancel.
      await env.sleep(5_000);
      await handle.cancel();
    });
    assert.ok(outcome instanceof WorkflowFailedError, String(outcome));
    const names = calls.map((call) => call.name);
    assert.deepEqual(names.slice(-2), ['cancelVideo', 'failVideo']);
    assert.deepEqual(
      calls.filter((call) => call.name === 'failVideo').map((call) => call.reason),
      [VIDEO_CANCELLED_REASON],
    );
    assert.equal(events.length, 1, 'the cancellation is announced once');
  });

  it('renders with the offline renderer in one activity, without polling', async () => {
    const { outcome, calls, events } = await generate({ submission: { timeoutSeconds: 120, renders: true }, polls: [] });
    assert.deepEqual(outcome, { state: 'completed' });
    assert.deepEqual(
      calls.map((call) => call.name),
      ['submitVideo', 'renderVideo'],
    );
    assert.equal(events.length, 1);
  });
});
