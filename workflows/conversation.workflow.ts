import {
  CancellationScope,
  allHandlersFinished,
  condition,
  continueAsNew,
  defineSignal,
  defineUpdate,
  proxyLocalActivities,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import {
  CONVERSATION_TURNS_PER_HISTORY,
  RUN_CANCELLED_ERROR,
  SIGNALS,
  TURN_REFUSED,
  UPDATES,
  type AcceptedTurn,
  type ConversationActivities,
  type ConversationWorkflowInput,
  type TurnSubmission,
  type WaitingTurn,
} from '@pylon/contracts';
import { announce } from './announce';
import { runAsChild } from './agent-run/as-child';
import { refuse } from './agent-run/refuse';

/** A new turn: accepted and numbered, or refused (busy with `if_busy: reject`, or the conversation is gone). */
export const submitTurn = defineUpdate<AcceptedTurn, [TurnSubmission]>(UPDATES.submitTurn);
/** The conversation was deleted: no more turns; the workflow ends once the turns it has are done. */
export const conversationDeleted = defineSignal(SIGNALS.conversationDeleted);

const projection = proxyLocalActivities<ConversationActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds' },
});

interface Turn extends WaitingTurn {
  /** Its number is recorded on the run (so the run reads the history before it): it may start. */
  numbered: boolean;
}

/**
 * A conversation, `conversation:<id>`: it takes turns by Update (with start, so the first turn starts it)
 * and runs them one at a time in the order it accepted them, each as the child workflow
 * `agent-run:<run_id>`. The queue and its order live here; the database only keeps the projection (each
 * turn's number, its items). `interrupt` drops the turns still waiting and cancels the running one.
 * After CONVERSATION_TURNS_PER_HISTORY turns it continues as new with the turns still waiting.
 */
export async function conversationWorkflow(conversation: ConversationWorkflowInput): Promise<void> {
  const queue: Turn[] = (conversation.waiting ?? []).map((turn) => ({ ...turn, numbered: true }));
  /** Turns an `interrupt` took out of the queue, to be recorded failed `cancelled`. */
  const dropped: Turn[] = [];
  let turnsTaken = conversation.turnsTaken;
  let running: { runId: string; seq: number; scope: CancellationScope } | null = null;
  let deleted = false;

  const known = (runId: string) => (running?.runId === runId ? running : queue.find((turn) => turn.submission.runId === runId));

  setHandler(conversationDeleted, () => void (deleted = true));
  // The handler only takes the turn into the queue; the bookkeeping coroutine records it (a handler that ran
  // activities of its own could replay out of order with the turns' children), and the Update completes then.
  setHandler(
    submitTurn,
    async (submission) => {
      const turn = known(submission.runId) ?? { seq: ++turnsTaken, submission, numbered: false };
      if (!('numbered' in turn)) return { seq: turn.seq }; // the running turn, sent again (an API retry)
      if (!queue.includes(turn)) {
        if (submission.ifBusy === 'interrupt') {
          running?.scope.cancel();
          dropped.push(...queue.splice(0));
        }
        queue.push(turn);
      }
      await condition(() => turn.numbered);
      return { seq: turn.seq };
    },
    {
      validator: (submission) => {
        if (known(submission.runId)) return;
        if (deleted || submission.orgId !== conversation.orgId) refuse(TURN_REFUSED.gone, 'no such conversation');
        if (submission.ifBusy === 'reject' && (running || queue.length > 0)) {
          refuse(TURN_REFUSED.busy, 'an earlier turn of this conversation is not finished');
        }
      },
    },
  );

  /** Records what the handler took in, in order: each new turn's number, and the turns an interrupt dropped. */
  async function keepBooks(): Promise<never> {
    for (;;) {
      await condition(() => dropped.length > 0 || queue.some((turn) => !turn.numbered));
      const turn = queue.find((candidate) => !candidate.numbered);
      if (turn) {
        const { orgId, conversationId } = conversation;
        await projection.numberTurn({ orgId, conversationId, runId: turn.submission.runId, seq: turn.seq });
        turn.numbered = true;
      }
      const earlier = dropped.shift();
      if (earlier) {
        await announce(conversation.orgId, await projection.markRunFailed({ ...earlier.submission.start.input, error: RUN_CANCELLED_ERROR }));
        earlier.numbered = true; // its Update, if still waiting, answers
      }
    }
  }
  void keepBooks();

  const turnsPerHistory = conversation.turnsPerHistory ?? CONVERSATION_TURNS_PER_HISTORY;
  let turnsRun = 0;
  for (;;) {
    await condition(() => queue[0]?.numbered === true || (deleted && queue.length === 0 && dropped.length === 0));
    if (queue.length === 0) break;
    const turn = queue.shift()!;
    const scope = new CancellationScope();
    running = { runId: turn.submission.runId, seq: turn.seq, scope };
    await scope.run(() => runAsChild(turn.submission.orgId, turn.submission.runId, turn.submission.start));
    running = null;
    if (++turnsRun >= turnsPerHistory || workflowInfo().continueAsNewSuggested) {
      await condition(() => allHandlersFinished() && dropped.length === 0 && queue.every((waiting) => waiting.numbered));
      if (queue.length === 0 && deleted) break;
      await continueAsNew<typeof conversationWorkflow>({
        ...conversation,
        turnsTaken,
        waiting: queue.map(({ seq, submission }) => ({ seq, submission })),
      });
    }
  }
  await condition(() => allHandlersFinished() && dropped.length === 0);
}
