import { proxyActivities, proxyLocalActivities, type RetryPolicy } from '@temporalio/workflow';
import {
  NON_RETRYABLE_LLM_ERROR,
  RUN_ALREADY_FINISHED_ERROR,
  RUN_NOT_FOUND_ERROR,
  type AgentRunActivities,
  type AgentRunWorkflowInput,
  type TurnInput,
} from '@pylon/contracts';

const databaseRetry: RetryPolicy = {
  initialInterval: '1 second',
  backoffCoefficient: 2,
  maximumInterval: '30 seconds',
  nonRetryableErrorTypes: [RUN_NOT_FOUND_ERROR],
};

/**
 * Short statements (recording an action, an answer, a failure): local activities, run inside the workflow
 * task that needs them, so they cost no task round trip. Retried until the database is back.
 */
export const projection = proxyLocalActivities<AgentRunActivities>({ startToCloseTimeout: '30 seconds', retry: databaseRetry });

/** Tools may call the embedding provider (a knowledge search): ordinary activities. */
export const tools = proxyActivities<AgentRunActivities>({ startToCloseTimeout: '1 minute', retry: databaseRetry });

/** Model turns back off on rate limits / 5xx / timeouts and are not retried on a 4xx. */
const llmRetry: RetryPolicy = {
  initialInterval: '2 seconds',
  backoffCoefficient: 2,
  maximumInterval: '1 minute',
  maximumAttempts: 6,
  nonRetryableErrorTypes: [NON_RETRYABLE_LLM_ERROR, RUN_NOT_FOUND_ERROR, RUN_ALREADY_FINISHED_ERROR],
};

export type ModelTurns = Pick<AgentRunActivities, 'takeTurn' | 'repairAnswer'>;

/** A model with another behind it gives up sooner: the next model takes the turn instead of the run waiting out an outage. */
export const retryBeforeFallback: RetryPolicy = { ...llmRetry, maximumAttempts: 3 };

/**
 * A model that answers in the worker's own process in milliseconds: a local activity, so the turn is
 * answered inside the workflow task that asks for it (no activity task, no second workflow task), and it
 * records the tool outputs it goes on from itself. A model behind the network: each turn an activity,
 * bounded per attempt and heartbeating, after the outputs were recorded in the workflow task that accepted
 * them, so the caller who sent them sees them on record while the model thinks.
 */
export function modelTurns(run: AgentRunWorkflowInput, retry: RetryPolicy = llmRetry): ModelTurns {
  if (run.modelAnswersInProcess) return proxyLocalActivities<AgentRunActivities>({ startToCloseTimeout: '1 minute', retry });
  const remote = proxyActivities<AgentRunActivities>({
    startToCloseTimeout: '2 minutes',
    heartbeatTimeout: run.heartbeatTimeoutSeconds * 1000,
    retry,
  });
  return {
    async takeTurn({ answered, ...turn }: TurnInput) {
      if (answered) await projection.recordAnswer({ ...run, ...answered });
      return remote.takeTurn(turn);
    },
    repairAnswer: remote.repairAnswer,
  };
}
