import { ActivityFailure, ApplicationFailure, CancellationScope, allHandlersFinished, condition, isCancellation } from '@temporalio/workflow';
import {
  MAX_AGENT_TURNS,
  RUN_ALREADY_FINISHED_ERROR,
  RUN_CANCELLED_ERROR,
  type AcceptedAnswer,
  type AgentRunOutcome,
  type AgentRunWorkflowInput,
  type TranscriptEntry,
} from '@pylon/contracts';
import { announce } from './announce';
import { describeFailure } from './failure-reason';
import { mcpActivities } from './mcp-tools';
import { projection } from './agent-run/activity-options';
import { modelChain } from './agent-run/model-chain';
import { ActiveTime } from './agent-run/active-time';
import { RequiredActions } from './agent-run/required-actions';
import { asModelCall, toolDispatch } from './agent-run/tool-dispatch';

export { answerAction } from './agent-run/required-actions';

/**
 * An agent run: the model takes turns (the first marks the run running; a fallback model takes a turn its
 * model could not, model-chain.ts) until it answers; the tools it
 * calls in between are run (tool-dispatch.ts), and what needs a person or the caller is waited for at no
 * cost (required-actions.ts); the next turn records the outputs it was given. A structured answer that misses the schema gets one repair turn of its own. The turn that answers records the output, so the caller sees the run
 * succeeded as soon as the model is done. A failure is recorded with a readable error; a cancelled run
 * ends `failed` with `cancelled`; either way its event is announced to webhooks.
 */
export async function agentRunWorkflow(run: AgentRunWorkflowInput): Promise<AgentRunOutcome> {
  const model = modelChain(run);
  const clock = new ActiveTime(run.runTimeoutSeconds * 1000);
  const runTools = toolDispatch(run, clock, new RequiredActions(run));
  try {
    const transcript: TranscriptEntry[] = [];
    let answered: AcceptedAnswer | undefined;
    const mcpTools = run.mcpVersionId ? await clock.counting(() => mcpActivities(run).listMcpTools(run)) : undefined;
    for (let turn = 0; ; turn++) {
      if (turn === MAX_AGENT_TURNS) throw ApplicationFailure.nonRetryable(`the agent called tools ${MAX_AGENT_TURNS} times without answering`);
      const asked = { ...run, transcript, ...(mcpTools && { mcpTools }) };
      const first = await clock.counting(() => model.takeTurn({ ...asked, ...(answered && { answered }) }));
      const reply = first.kind === 'off_schema' ? await clock.counting(() => model.repairAnswer({ ...asked, repair: first.repair })) : first;
      if (reply.kind === 'answered') {
        await announce(run.orgId, reply.eventId);
        return { status: 'succeeded' };
      }
      transcript.push({ role: 'assistant', toolCalls: reply.calls.map(asModelCall), ...(reply.content ? { content: reply.content } : {}) });
      const tools = await runTools(reply.calls);
      transcript.push(...tools.results);
      answered = tools.answered;
    }
  } catch (failure) {
    return await recordFailure(run, failure);
  } finally {
    await CancellationScope.nonCancellable(() => condition(allHandlersFinished));
  }
}

/** Records why the run failed (a cancel by the caller rethrows, so the workflow ends cancelled too). */
async function recordFailure(run: AgentRunWorkflowInput, failure: unknown): Promise<AgentRunOutcome> {
  if (alreadyFinished(failure)) return { status: 'failed', error: 'run had already finished' };
  const cancelledByCaller = CancellationScope.current().consideredCancelled;
  const error = cancelledByCaller
    ? RUN_CANCELLED_ERROR
    : isCancellation(failure)
      ? `run timed out after ${run.runTimeoutSeconds} seconds`
      : describeFailure(failure);
  await CancellationScope.nonCancellable(async () => announce(run.orgId, await projection.markRunFailed({ ...run, error })));
  if (cancelledByCaller) throw failure;
  return { status: 'failed', error };
}

/** A run that was already final when its workflow got to it (a duplicate or replayed execution). */
function alreadyFinished(failure: unknown): boolean {
  return failure instanceof ActivityFailure && failure.cause instanceof ApplicationFailure && failure.cause.type === RUN_ALREADY_FINISHED_ERROR;
}
