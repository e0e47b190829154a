import {
  ActivityFailure,
  ApplicationFailure,
  CancellationScope,
  isCancellation,
  proxyActivities,
  proxyLocalActivities,
  type RetryPolicy,
} from '@temporalio/workflow';
import {
  MAX_AGENT_TURNS,
  NON_RETRYABLE_LLM_ERROR,
  RUN_ALREADY_FINISHED_ERROR,
  RUN_CANCELLED_ERROR,
  RUN_NOT_FOUND_ERROR,
  type AgentRunActivities,
  type AgentRunOutcome,
  type AgentRunWorkflowInput,
  type TranscriptEntry,
} from '@pylon/contracts';
import { announce } from './announce';
import { describeFailure } from './failure-reason';

const databaseRetry: RetryPolicy = {
  initialInterval: '1 second',
  backoffCoefficient: 2,
  maximumInterval: '30 seconds',
  nonRetryableErrorTypes: [RUN_NOT_FOUND_ERROR],
};

/**
 * Recording a failure is two short statements: a local activity, run inside the workflow task that
 * needs it, so it costs no task round trip. Retried until the database is back.
 */
const projection = proxyLocalActivities<AgentRunActivities>({ startToCloseTimeout: '30 seconds', retry: databaseRetry });

/** Tools may call the embedding provider (a knowledge search): ordinary activities. */
const tools = proxyActivities<AgentRunActivities>({ startToCloseTimeout: '1 minute', retry: databaseRetry });

/** Model turns back off on rate limits / 5xx / timeouts and are not retried on a 4xx. */
const llmRetry: RetryPolicy = {
  initialInterval: '2 seconds',
  backoffCoefficient: 2,
  maximumInterval: '1 minute',
  maximumAttempts: 6,
  nonRetryableErrorTypes: [NON_RETRYABLE_LLM_ERROR, RUN_NOT_FOUND_ERROR, RUN_ALREADY_FINISHED_ERROR],
};

/**
 * A model behind the network: each turn an activity, bounded per attempt and heartbeating. A model that
 * answers in the worker's own process in milliseconds: a local activity, so the turn is answered inside
 * the workflow task that asks for it, with no activity task and no second workflow task.
 */
function modelTurns(run: AgentRunWorkflowInput) {
  if (run.modelAnswersInProcess) return proxyLocalActivities<AgentRunActivities>({ startToCloseTimeout: '1 minute', retry: llmRetry });
  return proxyActivities<AgentRunActivities>({
    startToCloseTimeout: '2 minutes',
    heartbeatTimeout: run.heartbeatTimeoutSeconds * 1000,
    retry: llmRetry,
  });
}

/** A run that was already final when its workflow got to it (a duplicate or replayed execution). */
function alreadyFinished(failure: unknown): boolean {
  return failure instanceof ActivityFailure && failure.cause instanceof ApplicationFailure && failure.cause.type === RUN_ALREADY_FINISHED_ERROR;
}

/**
 * An agent run: let the model take turns (the first marks the run running), running the tools it calls
 * (each an activity) until it answers, all within the version's run timeout. The turn that answers
 * records the output, so the caller sees the run succeeded as soon as the model is done; a failure is
 * recorded with a readable error. Either way the event is announced to webhooks. A cancelled run ends
 * `failed` with `cancelled`.
 */
export async function agentRunWorkflow(run: AgentRunWorkflowInput): Promise<AgentRunOutcome> {
  const llm = modelTurns(run);
  try {
    const answered = await CancellationScope.withTimeout(run.runTimeoutSeconds * 1000, async () => {
      const transcript: TranscriptEntry[] = [];
      for (let turn = 0; turn < MAX_AGENT_TURNS; turn++) {
        const reply = await llm.takeTurn({ ...run, transcript });
        if (reply.kind === 'answered') return reply;
        transcript.push({ role: 'assistant', toolCalls: reply.calls, ...(reply.content ? { content: reply.content } : {}) });
        for (const call of reply.calls) {
          transcript.push({ role: 'tool', toolCallId: call.id, content: await tools.runTool({ ...run, call }) });
        }
      }
      throw ApplicationFailure.nonRetryable(`the agent called tools ${MAX_AGENT_TURNS} times without answering`);
    });
    await announce(run.orgId, answered.eventId);
    return { status: 'succeeded' };
  } catch (failure) {
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
}
