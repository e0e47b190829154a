import { ApplicationFailure, condition, defineUpdate, setHandler, uuid4 } from '@temporalio/workflow';
import {
  ACTION_EXPIRED_ERROR,
  ACTION_EXPIRED_FAILURE,
  ANSWER_REFUSED,
  DEFAULT_ACTION_TIMEOUT_SECONDS,
  UPDATES,
  answerFault,
  answerKey,
  type AcceptedAnswer,
  type ActionAnswer,
  type ActionAnswerUpdate,
  type AgentRunWorkflowInput,
  type RequiredActionType,
  type ToolCall,
} from '@pylon/contracts';
import { announce } from '../announce';
import { projection } from './activity-options';
import { refuse } from './refuse';

/**
 * The caller's answer to what the run waits for. The Update completes once the workflow accepted it (its
 * result reaches the caller with the workflow task, after the task's local activities have recorded it).
 */
export const answerAction = defineUpdate<void, [ActionAnswerUpdate]>(UPDATES.answerAction);

interface Pending {
  actionId: string;
  type: RequiredActionType;
  calls: ToolCall[];
  accepted?: { key: string; answer: ActionAnswer };
}

/**
 * What the run waits for, owned by the workflow alone. An answer arrives as an Update: its validator
 * refuses one that does not fit (400) or finds nothing to answer (409) before anything is written; the
 * wait hands back the accepted answer for the run to record; the same answer again is accepted and
 * changes nothing. A wait that runs out is recorded expired, and the run fails.
 */
export class RequiredActions {
  private pending: Pending | null = null;
  /** The key of the last answer the run went on with: sent again, it is a retry, not a new answer. */
  private lastAnswered: string | null = null;

  constructor(private readonly run: AgentRunWorkflowInput) {
    setHandler(answerAction, (update) => this.accept(update), { validator: (update) => this.check(update) });
  }

  /** Records the action, announces it, and sleeps until an answer is accepted (handed back, not yet recorded) or the action's time runs out. */
  async waitFor(type: RequiredActionType, calls: ToolCall[]): Promise<AcceptedAnswer> {
    const actionId = uuid4();
    // Pending before it is recorded: a caller who read the record may answer before the workflow hears back from the database.
    const pending: Pending = (this.pending = { actionId, type, calls });
    await announce(this.run.orgId, await projection.requireAction({ ...this.run, actionId, request: { type, calls } }));
    const timeoutMs = (this.run.actionTimeoutSeconds ?? DEFAULT_ACTION_TIMEOUT_SECONDS) * 1000;
    if (!(await condition(() => pending.accepted !== undefined, timeoutMs))) {
      this.pending = null;
      await projection.expireAction({ ...this.run, actionId });
      throw ApplicationFailure.nonRetryable(ACTION_EXPIRED_ERROR, ACTION_EXPIRED_FAILURE);
    }
    this.lastAnswered = pending.accepted!.key;
    this.pending = null;
    return { actionId, calls, answer: pending.accepted!.answer };
  }

  /** Records an accepted answer with what it adds to the run's log and conversation (a local activity). */
  async record(answered: AcceptedAnswer): Promise<void> {
    await projection.recordAnswer({ ...this.run, ...answered });
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

  /** Accepts the answer for the wait to hand back (a handler that ran activities of its own could replay out of order). */
  private accept({ answer }: ActionAnswerUpdate): void {
    const pending = this.pending;
    if (!pending) return; // the answer the run already went on with, sent again
    pending.accepted ??= { key: answerKey(answer), answer };
  }
}
