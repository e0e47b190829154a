import { ApplicationFailure, condition, defineUpdate, setHandler, uuid4 } from '@temporalio/workflow';
import {
  ACTION_EXPIRED_ERROR,
  ACTION_EXPIRED_FAILURE,
  ANSWER_REFUSED,
  DEFAULT_ACTION_TIMEOUT_SECONDS,
  UPDATES,
  answerFault,
  answerKey,
  type ActionAnswer,
  type ActionAnswerUpdate,
  type AgentRunWorkflowInput,
  type RequiredActionType,
  type ToolCall,
} from '@pylon/contracts';
import { announce } from '../announce';
import { projection } from './activity-options';
import { refuse } from './refuse';

/** The caller's answer to what the run waits for; the Update completes once the answer is recorded. */
export const answerAction = defineUpdate<void, [ActionAnswerUpdate]>(UPDATES.answerAction);

interface Pending {
  actionId: string;
  type: RequiredActionType;
  calls: ToolCall[];
  accepted?: { key: string; answer: ActionAnswer };
  recorded: boolean;
}

/**
 * What the run waits for, owned by the workflow alone. An answer arrives as an Update: its validator
 * refuses one that does not fit (400) or finds nothing to answer (409) before anything is written; the
 * wait records an accepted answer (a local activity) and the Update completes then; the same answer
 * again is accepted and changes nothing. A wait that runs out is recorded expired, and the run fails.
 */
export class RequiredActions {
  private pending: Pending | null = null;
  /** The key of the last answer the run went on with: sent again, it is a retry, not a new answer. */
  private lastAnswered: string | null = null;

  constructor(private readonly run: AgentRunWorkflowInput) {
    setHandler(answerAction, (update) => this.accept(update), { validator: (update) => this.check(update) });
  }

  /** Records the action, announces it, and sleeps until an answer is accepted or the action's time runs out. */
  async waitFor(type: RequiredActionType, calls: ToolCall[]): Promise<ActionAnswer> {
    const actionId = uuid4();
    // Pending before it is recorded: a caller who read the record may answer before the workflow hears back from the database.
    const pending: Pending = (this.pending = { actionId, type, calls, recorded: false });
    await announce(this.run.orgId, await projection.requireAction({ ...this.run, actionId, request: { type, calls } }));
    const timeoutMs = (this.run.actionTimeoutSeconds ?? DEFAULT_ACTION_TIMEOUT_SECONDS) * 1000;
    if (!(await condition(() => pending.accepted !== undefined, timeoutMs))) {
      this.pending = null;
      await projection.expireAction({ ...this.run, actionId });
      throw ApplicationFailure.nonRetryable(ACTION_EXPIRED_ERROR, ACTION_EXPIRED_FAILURE);
    }
    await projection.recordAnswer({ ...this.run, actionId, calls, answer: pending.accepted!.answer });
    pending.recorded = true;
    this.lastAnswered = pending.accepted!.key;
    this.pending = null;
    return pending.accepted!.answer;
  }

  private check({ orgId, answer }: ActionAnswerUpdate): void {
    if (orgId !== this.run.orgId) refuse(ANSWER_REFUSED.notWaiting, 'no such run');
    const key = answerKey(answer);
    const pending = this.pending;
    if (pending?.accepted ? pending.accepted.key === key : !pending && this.lastAnswered === key) return;
    if (pending?.accepted || (!pending && this.lastAnswered)) refuse(ANSWER_REFUSED.notWaiting, "the run's action was already answered differently");
    if (!pending) refuse(ANSWER_REFUSED.notWaiting, 'the run waits for no action (it is running)');
    if (pending.type !== answer.type) refuse(ANSWER_REFUSED.notWaiting, `the run waits for ${pending.type}, not ${answer.type}`);
    const fault = answerFault(pending.calls, answer);
    if (fault) refuse(ANSWER_REFUSED.badAnswer, fault);
  }

  /** Accepts the answer; the wait records it (a handler that ran activities of its own could replay out of order), and the Update completes then. */
  private async accept({ answer }: ActionAnswerUpdate): Promise<void> {
    const pending = this.pending;
    if (!pending) return; // the answer the run already went on with, sent again
    pending.accepted ??= { key: answerKey(answer), answer };
    await condition(() => pending.recorded);
  }
}
