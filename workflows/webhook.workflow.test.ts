import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Context } from '@temporalio/activity';
import type { WorkflowHandle } from '@temporalio/client';
import { tsToMs } from '@temporalio/common/lib/time';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import { DELIVERY_SCHEDULE_MS, type AttemptOutcome, type WebhookActivities, type WebhookEventInput } from '@pylon/contracts';
import { createTimeSkippingEnv } from '../test/support/time-skipping';
import { attemptNow, retry, webhookWorkflow } from './webhook.workflow';

/** The marker a local activity leaves in the history (a patch leaves one named core_patch). */
const LOCAL_ACTIVITY_MARKER = 'core_local_activity';
const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
/** Slack allowed on a workflow-time offset for the real time the worker and server take between steps. */
const SLACK_MS = 3 * SECOND;

interface Attempt {
  attempt: number;
  nextAttemptInMs: number | null;
  /** Workflow time, from the workflow's start, at which the workflow made this attempt (the server's clock). */
  offsetMs: number;
  /** Made by a local activity: its call number, until the test reads the time from the history. */
  localCall?: number;
}

/** The offsets of attempts 1..n if each waits its DELIVERY_SCHEDULE_MS delay after the previous one. */
function cumulativeOffsets(n: number): number[] {
  let total = 0;
  return DELIVERY_SCHEDULE_MS.slice(0, n).map((delay) => (total += delay));
}

/**
 * Attempt 1 comes at once (before the shortest retry delay could have passed, whatever the real time its first
 * workflow task takes); attempt i at `expected[i]` after attempt 1, give or take the real time of the steps.
 */
function assertOffsets(actual: number[], expected: number[]): void {
  assert.equal(actual.length, expected.length, `attempt offsets ${JSON.stringify(actual)}`);
  assert.ok(actual[0]! >= 0 && actual[0]! < DELIVERY_SCHEDULE_MS[1], `attempt 1 at +${actual[0]} ms after the start`);
  actual.forEach((offset, i) => {
    const sinceFirst = offset - actual[0]!;
    const want = expected[i]!;
    assert.ok(
      sinceFirst >= want && sinceFirst < want + SLACK_MS,
      `attempt ${i + 1} at +${sinceFirst} ms after attempt 1, expected +${want} ms (offsets from the start: ${JSON.stringify(actual)})`,
    );
  });
}

async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 15 * SECOND): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

type Handle = WorkflowHandle<typeof webhookWorkflow>;

/** What the scripted receiver of one delivery answers, and what the activities saw for it. */
interface Delivery {
  answers: AttemptOutcome[];
  /** Attempts made before the workflow started (the first one, by the source workflow's deliverEvent). */
  before: number;
  attempts: Attempt[];
  failed: { reason: string; offsetMs: number; localCall?: number }[];
  /** A replay's answer waits for this (the receiver is slow). */
  answerAfter?: Promise<void>;
}

/**
 * The webhook workflow on Temporal's time-skipping test server with its activities replaced: the receiver's
 * answers are scripted and each attempt is recorded with the workflow time it was made at (see when(): the
 * server's clock, which time skipping moves, not the worker's real one). Hours of
 * timers pass in milliseconds while a test awaits the result. One worker (one workflow bundle) serves every
 * test, each on its own event and delivery ids; the tests run one after another, as time skipping is global
 * to the test server.
 */
describe('webhook workflow (time skipping)', () => {
  const taskQueue = `webhook-test-${randomUUID()}`;
  const deliveries = new Map<string, Delivery>();
  /** The deliveries of each event, for its first attempts. */
  const eventDeliveries = new Map<string, string[]>();
  let planned = 0;
  let env: TestWorkflowEnvironment;
  let running: Promise<void>;
  let stopWorker!: () => void;

  const deliveryOf = (deliveryId: string): Delivery => {
    const delivery = deliveries.get(deliveryId);
    if (!delivery) throw new Error(`no scripted receiver for delivery ${deliveryId}`);
    return delivery;
  };
  let localCalls = 0;
  /**
   * When an activity ran. A local activity (the first attempts, the rounds) knows only the worker's real clock:
   * it records which local activity call it was. Another (a replay) records the time the server scheduled it
   * at, absolute until the test knows the workflow's start time.
   */
  const when = (local: boolean): Pick<Attempt, 'offsetMs' | 'localCall'> => {
    const { isLocal, scheduledTimestampMs } = Context.current().info;
    assert.equal(isLocal, local, local ? 'the first attempts and the rounds are local activities' : 'a replay is an activity task');
    return isLocal ? { offsetMs: NaN, localCall: localCalls++ } : { offsetMs: scheduledTimestampMs };
  };
  /** Records an attempt of the delivery; answers its scripted outcome. */
  const attempt = (deliveryId: string, nextAttemptInMs: number | null, at: Pick<Attempt, 'offsetMs' | 'localCall'>): AttemptOutcome => {
    const delivery = deliveryOf(deliveryId);
    delivery.attempts.push({ attempt: delivery.before + delivery.attempts.length + 1, nextAttemptInMs, ...at });
    return delivery.answers[Math.min(delivery.attempts.length, delivery.answers.length) - 1]!;
  };
  const activities: WebhookActivities = {
    deliverEvent: async () => {
      planned++;
      return { retrying: 0 };
    },
    attemptEvent: async (input) => {
      const at = when(true);
      return (eventDeliveries.get(input.eventId) ?? []).filter((deliveryId) => attempt(deliveryId, DELIVERY_SCHEDULE_MS[1], at) === 'retry');
    },
    attemptDelivery: async (input) => {
      const outcome = attempt(input.deliveryId, input.nextAttemptInMs, when(false));
      await deliveryOf(input.deliveryId).answerAfter;
      return outcome;
    },
    retryDeliveries: async (input) => {
      const at = when(true);
      return input.deliveryIds.filter((deliveryId) => attempt(deliveryId, input.nextAttemptInMs, at) === 'retry');
    },
    markDeliveriesFailed: async (input) => {
      const at = when(true);
      for (const deliveryId of input.deliveryIds) deliveryOf(deliveryId).failed.push({ reason: input.reason, ...at });
    },
  };

  before(async () => {
    Runtime.install({ logger: new DefaultLogger('WARN') });
    env = await createTimeSkippingEnv();
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowsPath: require.resolve('./index'),
      activities,
    });
    running = worker.runUntil(new Promise<void>((resolve) => (stopWorker = resolve)));
  });
  after(async () => {
    stopWorker?.();
    await running;
    await env?.teardown();
    assert.equal(planned, 0, 'the webhook workflow calls no deliverEvent of its own');
  });

  /**
   * Runs one event's webhook workflow: `answers[d][i]` is what the receiver's attempt i+1 of delivery d yields
   * (the last one repeats). `start` says how it is started: as the API starts it (it makes the first attempts),
   * as the source's deliverEvent starts it (the first attempts made and failed, the first wait as its start
   * delay), or by a replay's signal (signalWithStart, naming the first delivery). `during` runs before the
   * result is awaited — i.e. while the server's clock still runs in real time.
   */
  async function run(
    answers: AttemptOutcome[][],
    options: {
      start?: 'first attempts' | 'retries' | 'replay';
      during?: (ctx: { handle: Handle; eventId: string; ids: string[]; startedAtMs: number }) => Promise<void>;
    } = {},
  ) {
    const start = options.start ?? 'first attempts';
    const ids = answers.map((list) => {
      const deliveryId = randomUUID();
      deliveries.set(deliveryId, { answers: list, before: start === 'retries' ? 1 : 0, attempts: [], failed: [] });
      return deliveryId;
    });
    const eventId = randomUUID();
    eventDeliveries.set(eventId, ids);
    const input: WebhookEventInput = {
      orgId: randomUUID(),
      eventId,
      ...(start === 'first attempts' ? {} : { retrying: start === 'retries' ? ids : [] }),
    };
    const firstCall = localCalls;
    const realStart = Date.now();
    const startOptions = { taskQueue, workflowId: `webhook:${eventId}`, args: [input] as [WebhookEventInput] };
    const handle: Handle =
      start === 'replay'
        ? await env.client.workflow.signalWithStart(webhookWorkflow, { ...startOptions, signal: attemptNow, signalArgs: [ids[0]!] })
        : await env.client.workflow.start(webhookWorkflow, {
            ...startOptions,
            ...(start === 'retries' ? { startDelay: DELIVERY_SCHEDULE_MS[1] } : {}),
          });
    const startedAtMs = (await handle.describe()).startTime.getTime();
    const workerStopped = running.then(() => {
      throw new Error('the worker stopped before the workflow finished');
    });
    await Promise.race([options.during?.({ handle, eventId, ids, startedAtMs }), workerStopped]);
    const result = await Promise.race([handle.result(), workerStopped]);
    const realMs = Date.now() - realStart;
    const { events } = await handle.fetchHistory();
    const markerTimes = (events ?? [])
      .filter((event) => event.markerRecordedEventAttributes?.markerName === LOCAL_ACTIVITY_MARKER)
      .map((event) => tsToMs(event.eventTime));
    const of = ids.map((id) => deliveryOf(id));
    for (const delivery of of)
      for (const record of [...delivery.attempts, ...delivery.failed])
        record.offsetMs = (record.localCall === undefined ? record.offsetMs : markerTimes[record.localCall - firstCall]!) - startedAtMs;
    /** The tasks Temporal dispatched: workflow tasks and activity tasks (a local activity is a marker inside a workflow task). */
    const tasks = (events ?? []).flatMap((event) => {
      if (event.workflowTaskCompletedEventAttributes) return ['workflow task'];
      if (event.activityTaskScheduledEventAttributes) return ['activity task'];
      return [];
    });
    return { result, deliveries: of, tasks, realMs };
  }

  /** One delivery of an event the workflow makes the first attempts of (an event recorded by the API, a test event). */
  async function deliver(answers: AttemptOutcome[], options: Parameters<typeof run>[1] = {}) {
    const {
      result,
      deliveries: [delivery],
      realMs,
    } = await run([answers], options);
    return { result, attempts: delivery!.attempts, failed: delivery!.failed, realMs };
  }

  it('a receiver failing three times then answering 2xx: 4 attempts at +0, +5 s, +5 min 5 s, +35 min 5 s, delivered', async () => {
    const { result, attempts, failed, realMs } = await deliver(['retry', 'retry', 'retry', 'delivered']);
    assert.deepEqual(result, { failed: 0, attempts: 4 });
    assert.deepEqual(
      attempts.map(({ attempt, nextAttemptInMs }) => ({ attempt, nextAttemptInMs })),
      [
        { attempt: 1, nextAttemptInMs: 5 * SECOND },
        { attempt: 2, nextAttemptInMs: 5 * MINUTE },
        { attempt: 3, nextAttemptInMs: 30 * MINUTE },
        { attempt: 4, nextAttemptInMs: 2 * HOUR },
      ],
    );
    assertOffsets(
      attempts.map((a) => a.offsetMs),
      [0, 5 * SECOND, 5 * MINUTE + 5 * SECOND, 35 * MINUTE + 5 * SECOND],
    );
    assert.deepEqual(failed, []);
    assert.ok(realMs < 30 * SECOND, `35 minutes of timers took ${realMs} ms of real time`);
  });

  it('a receiver that never answers 2xx: 8 attempts over 27 h 35 min 5 s, then the delivery is marked failed once', async () => {
    const { result, attempts, failed, realMs } = await deliver(['retry']);
    assert.deepEqual(result, { failed: 1, attempts: 8 });
    assert.deepEqual(
      attempts.map((a) => a.attempt),
      [1, 2, 3, 4, 5, 6, 7, 8],
    );
    assert.deepEqual(
      attempts.map((a) => a.nextAttemptInMs),
      [...DELIVERY_SCHEDULE_MS.slice(1), null],
    );
    const expected = cumulativeOffsets(8);
    assert.deepEqual(expected, [
      0,
      5 * SECOND,
      5 * MINUTE + 5 * SECOND,
      35 * MINUTE + 5 * SECOND,
      2 * HOUR + 35 * MINUTE + 5 * SECOND,
      7 * HOUR + 35 * MINUTE + 5 * SECOND,
      17 * HOUR + 35 * MINUTE + 5 * SECOND,
      27 * HOUR + 35 * MINUTE + 5 * SECOND,
    ]);
    assertOffsets(
      attempts.map((a) => a.offsetMs),
      expected,
    );
    assert.equal(failed.length, 1, JSON.stringify(failed));
    assert.equal(failed[0]!.reason, 'no 2xx after 8 attempts');
    const lastAttempt = attempts.at(-1)!.offsetMs;
    assert.ok(failed[0]!.offsetMs >= lastAttempt && failed[0]!.offsetMs < lastAttempt + SLACK_MS, `marked failed at +${failed[0]!.offsetMs} ms`);
    assert.ok(realMs < 30 * SECOND, `27 hours of timers took ${realMs} ms of real time`);
  });

  it("a receiver answering 410 ('gone') on the 2nd attempt ends the delivery there", async () => {
    const { result, attempts, failed } = await deliver(['retry', 'gone', 'delivered']);
    assert.deepEqual(result, { failed: 0, attempts: 2 });
    assertOffsets(
      attempts.map((a) => a.offsetMs),
      [0, 5 * SECOND],
    );
    assert.deepEqual(failed, []);
  });

  it("'stopped' (endpoint disabled or deleted meanwhile) ends the delivery at once", async () => {
    const { result, attempts, failed } = await deliver(['stopped', 'delivered']);
    assert.deepEqual(result, { failed: 0, attempts: 1 });
    assert.equal(attempts.length, 1);
    assert.deepEqual(failed, []);
  });

  /** Signals a replay of the event's delivery while it waits for its 5 min retry; returns when the signal was sent (workflow time). */
  const replayDuringTheFiveMinuteWait = async ({ handle, ids, startedAtMs }: { handle: Handle; ids: string[]; startedAtMs: number }) => {
    const { attempts } = deliveryOf(ids[0]!);
    // Time skipping stays locked until the result is awaited: meanwhile the server's clock runs in real time.
    await until(() => attempts.length === 1, 'the first attempt');
    await env.sleep(5 * SECOND); // skips the 5 s wait for the 2nd attempt
    await until(() => attempts.length === 2, 'the second attempt');
    const timersStarted = async () => (await handle.fetchHistory()).events?.filter((event) => event.timerStartedEventAttributes).length ?? 0;
    await until(async () => (await timersStarted()) === 2, 'the 5 min timer before the third attempt');
    const signalledAtMs = (await env.currentTimeMs()) - startedAtMs;
    await handle.signal(attemptNow, ids[0]!);
    await until(() => attempts.length === 3, 'the attempt the signal asks for', 10 * SECOND);
    return signalledAtMs;
  };

  it('the attemptNow signal makes a delivery waiting for its 5 min retry attempt at once', async () => {
    let signalledAtMs = Number.NaN;
    const { result, attempts, failed } = await deliver(['retry', 'retry', 'delivered'], {
      during: async (ctx) => void (signalledAtMs = await replayDuringTheFiveMinuteWait(ctx)),
    });
    // Two rounds of the schedule; the replay's attempt is not one of them.
    assert.deepEqual(result, { failed: 0, attempts: 2 });
    assert.equal(attempts.length, 3);
    const [first, second, third] = attempts.map((a) => a.offsetMs) as [number, number, number];
    assert.ok(second - first >= 5 * SECOND && second - first < 5 * SECOND + SLACK_MS, `2nd attempt ${second - first} ms after the 1st`);
    assert.ok(signalledAtMs < second + 5 * MINUTE, `signalled at +${signalledAtMs} ms, after the 5 min timer would have fired`);
    assert.ok(third >= signalledAtMs && third < signalledAtMs + SLACK_MS, `3rd attempt at +${third} ms, signalled at +${signalledAtMs} ms`);
    assert.deepEqual(failed, []);
  });

  it('a replay makes exactly one attempt, with no retry planned', async () => {
    const { result, attempts, failed } = await deliver(['retry'], { start: 'replay' });
    assert.deepEqual(
      attempts.map(({ attempt, nextAttemptInMs }) => ({ attempt, nextAttemptInMs })),
      [{ attempt: 1, nextAttemptInMs: null }],
    );
    assert.ok(attempts[0]!.offsetMs < DELIVERY_SCHEDULE_MS[1], `replay attempted at +${attempts[0]!.offsetMs} ms`);
    // The one attempt failing fails the delivery (it is on no schedule); no round of the schedule ran.
    assert.deepEqual(result, { failed: 1, attempts: 0 });
    assert.deepEqual(
      failed.map((f) => f.reason),
      ['no 2xx after 1 attempt'],
    );
  });

  it('a failed replay of a delivery whose event retries are still to come leaves it to them', async () => {
    let signalledAtMs = Number.NaN;
    const { result, attempts, failed } = await deliver(['retry', 'retry', 'retry', 'delivered'], {
      during: async (ctx) => void (signalledAtMs = await replayDuringTheFiveMinuteWait(ctx)),
    });
    assert.deepEqual(result, { failed: 0, attempts: 3 });
    assert.equal(attempts.length, 4);
    const [, second, replay, third] = attempts as [Attempt, Attempt, Attempt, Attempt];
    assert.ok(replay.offsetMs >= signalledAtMs && replay.offsetMs < signalledAtMs + SLACK_MS, `replay at +${replay.offsetMs} ms`);
    // The replay says when the schedule's next attempt is; the schedule goes on as if there had been no replay.
    assert.ok(replay.nextAttemptInMs! > 0 && replay.nextAttemptInMs! <= 5 * MINUTE, `replay's next attempt in ${replay.nextAttemptInMs} ms`);
    assert.ok(
      third.offsetMs - second.offsetMs >= 5 * MINUTE && third.offsetMs - second.offsetMs < 5 * MINUTE + SLACK_MS,
      `3rd round ${third.offsetMs - second.offsetMs} ms after the 2nd`,
    );
    assert.deepEqual(failed, []);
  });

  it('a successful replay makes exactly one attempt', async () => {
    const { result, attempts, failed } = await deliver(['delivered'], { start: 'replay' });
    assert.deepEqual(result, { failed: 0, attempts: 0 });
    assert.equal(attempts.length, 1);
    assert.deepEqual(failed, []);
  });

  it("an event's failed deliveries retry together: one recovers on its 3rd attempt, one never does; one round per step of the schedule", async () => {
    const {
      result,
      deliveries: [recovering, dead],
    } = await run([['retry', 'delivered'], ['retry']], { start: 'retries' });
    assert.deepEqual(result, { failed: 1, attempts: 8 });
    assert.deepEqual(
      recovering!.attempts.map((a) => a.attempt),
      [2, 3],
    );
    assert.deepEqual(recovering!.failed, []);
    assert.deepEqual(
      dead!.attempts.map((a) => a.attempt),
      [2, 3, 4, 5, 6, 7, 8],
    );
    assert.deepEqual(
      dead!.attempts.map((a) => a.nextAttemptInMs),
      [...DELIVERY_SCHEDULE_MS.slice(2), null],
    );
    // Attempt k comes DELIVERY_SCHEDULE_MS[k-1] after attempt k-1; attempt 1 was the first attempt, just before this workflow started.
    const expected = cumulativeOffsets(8).slice(1);
    dead!.attempts.forEach((a, i) => {
      assert.ok(
        a.offsetMs >= expected[i]! && a.offsetMs < expected[i]! + SLACK_MS,
        `attempt ${a.attempt} at +${a.offsetMs} ms, expected +${expected[i]} ms`,
      );
    });
    assert.equal(recovering!.attempts[0]!.offsetMs, dead!.attempts[0]!.offsetMs, 'one round attempts every delivery still pending');
    assert.deepEqual(
      dead!.failed.map((f) => f.reason),
      ['no 2xx after 8 attempts'],
    );
  });

  it('started with the first wait as its start delay (as the delivery activity starts it), it keeps the same schedule, one workflow task per round', async () => {
    const {
      result,
      deliveries: [dead],
      tasks,
    } = await run([['retry']], { start: 'retries' });
    assert.deepEqual(result, { failed: 1, attempts: 8 });
    // Seven rounds (attempts 2–8), each run inside the workflow task its timer wakes; the last one also fails the delivery.
    assert.deepEqual(tasks, Array(7).fill('workflow task'));
    const expected = cumulativeOffsets(8).slice(1);
    dead!.attempts.forEach((a, i) => {
      assert.ok(
        a.offsetMs >= expected[i]! && a.offsetMs < expected[i]! + SLACK_MS,
        `attempt ${a.attempt} at +${a.offsetMs} ms, expected +${expected[i]} ms`,
      );
    });
  });

  it("'gone' and 'stopped' end a delivery's retries; when none is left the workflow ends early", async () => {
    const {
      result,
      deliveries: [gone, stopped],
    } = await run([['gone'], ['retry', 'stopped']], { start: 'retries' });
    assert.deepEqual(result, { failed: 0, attempts: 3 });
    assert.equal(gone!.attempts.length, 1);
    assert.equal(stopped!.attempts.length, 2);
    assert.deepEqual([...gone!.failed, ...stopped!.failed], []);
  });

  it('a replay during the start delay (signal-with-start wakes the workflow) leaves the schedule as it was', async () => {
    const {
      result,
      deliveries: [replayed],
    } = await run([['retry', 'retry', 'delivered']], {
      start: 'retries',
      during: async ({ eventId, ids }) => {
        await env.client.workflow.signalWithStart(webhookWorkflow, {
          taskQueue,
          workflowId: `webhook:${eventId}`,
          args: [{ orgId: randomUUID(), eventId: randomUUID(), retrying: [] }],
          signal: attemptNow,
          signalArgs: [ids[0]!],
        });
        await until(() => deliveryOf(ids[0]!).attempts.length === 1, 'the replay');
      },
    });
    assert.deepEqual(result, { failed: 0, attempts: 3 });
    const [replay, second, third] = replayed!.attempts as [Attempt, Attempt, Attempt];
    assert.ok(replay.offsetMs < DELIVERY_SCHEDULE_MS[1] + SLACK_MS, `replay at +${replay.offsetMs} ms`);
    assert.ok(replay.nextAttemptInMs !== null, 'the replay of a delivery on the schedule says when its next attempt is');
    assert.ok(second.offsetMs >= 5 * SECOND && second.offsetMs < 5 * SECOND + SLACK_MS, `2nd attempt at +${second.offsetMs} ms`);
    assert.ok(
      third.offsetMs - second.offsetMs >= 5 * MINUTE && third.offsetMs - second.offsetMs < 5 * MINUTE + SLACK_MS,
      `3rd attempt ${third.offsetMs - second.offsetMs} ms after the 2nd`,
    );
    assert.deepEqual(replayed!.failed, [], 'a failed replay of a delivery on the schedule leaves it to the schedule');
  });

  it('a workflow started by a replay takes on deliveries whose first attempt failed meanwhile (the retry signal): they follow the schedule', async () => {
    let answer!: () => void;
    const {
      result,
      deliveries: [replayed, joining],
    } = await run([['delivered'], ['delivered']], {
      start: 'replay',
      during: async ({ handle, ids }) => {
        deliveryOf(ids[1]!).before = 1; // its first attempt failed, made by the source's deliverEvent
        const slow = deliveryOf(ids[0]!);
        slow.answerAfter = new Promise((resolve) => (answer = resolve));
        await until(() => slow.attempts.length === 1, 'the replay');
        await handle.signal(retry, [ids[1]!]);
        answer();
      },
    });
    assert.deepEqual(result, { failed: 0, attempts: 2 });
    assert.equal(replayed!.attempts.length, 1);
    // The delivery joins at the schedule's start: its 2nd attempt is the first round, 5 s after it joined.
    assert.deepEqual(
      joining!.attempts.map(({ attempt, nextAttemptInMs }) => ({ attempt, nextAttemptInMs })),
      [{ attempt: 2, nextAttemptInMs: 5 * MINUTE }],
    );
  });
});
