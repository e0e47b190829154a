import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApplicationFailure } from '@temporalio/activity';
import { ErrorCode, PylonError, RUN_NOT_FOUND_ERROR, SCHEDULE_FIRING_REFUSALS } from '@pylon/contracts';
import { RunCannotPayError, RunNotFoundError } from '@pylon/agent-runs';
import { RetryLaterError } from '@pylon/limits';
import { LlmUnavailableError } from '@pylon/llm';
import { activityFailureOf } from './activity-failure';

describe('activityFailureOf', () => {
  it('makes the domain errors retrying cannot cure non-retryable failures of the types the workflows know', () => {
    const notFound = activityFailureOf(new RunNotFoundError('r1'));
    assert.ok(notFound instanceof ApplicationFailure);
    assert.equal(notFound.type, RUN_NOT_FOUND_ERROR);
    assert.equal(notFound.nonRetryable, true);
    assert.equal(notFound.message, 'run r1 does not exist');
    const cannotPay = activityFailureOf(new RunCannotPayError('r1'));
    assert.ok(cannotPay instanceof ApplicationFailure);
    assert.equal(cannotPay.message, ErrorCode.InsufficientTokens);
  });

  it("retries an unavailable model no sooner than the provider's Retry-After, and one that said nothing by the policy alone", () => {
    const overloaded = activityFailureOf(new LlmUnavailableError('Anthropic answered 529: Overloaded', 7_000));
    assert.ok(overloaded instanceof ApplicationFailure);
    assert.equal(overloaded.nonRetryable, false);
    assert.equal(overloaded.nextRetryDelay, 7_000);
    const silent = new LlmUnavailableError('OpenAI answered 503');
    assert.equal(activityFailureOf(silent), silent);
  });

  it("gives any other PylonError its code as the failure type, for the workflow's retry policy to judge", () => {
    const refused = activityFailureOf(PylonError.notFound('no such agent version'));
    assert.ok(refused instanceof ApplicationFailure);
    assert.equal(refused.type, ErrorCode.NotFound);
    assert.equal(refused.nonRetryable, false);
    assert.equal(refused.message, 'no such agent version');
    assert.ok(SCHEDULE_FIRING_REFUSALS.includes(ErrorCode.NotFound));
    const backlog = activityFailureOf(new RetryLaterError('the backlog is full', 5));
    assert.ok(backlog instanceof ApplicationFailure);
    assert.equal(backlog.type, ErrorCode.RateLimited);
    assert.ok(!SCHEDULE_FIRING_REFUSALS.includes(ErrorCode.RateLimited));
  });

  it('passes anything else through unchanged', () => {
    const error = new TypeError('boom');
    assert.equal(activityFailureOf(error), error);
  });
});
