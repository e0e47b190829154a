import { ActivityFailure } from '@temporalio/workflow';
import type { AgentRunWorkflowInput, RepairInput, TurnInput } from '@pylon/contracts';
import { describeFailure } from '../failure-reason';
import { modelTurns, projection, retryBeforeFallback, type ModelTurns } from './activity-options';

/**
 * The version's model, then each of its fallback models in order. A turn whose model failed after its retries
 * (its provider overloaded, failing, timing out or rate-limiting past the retry budget) is taken by the next
 * model, and the run's log says so (`model_fallback`); the run stays on that model for its later turns. A
 * refusal (a 4xx, a content policy: not retryable) never falls back, nor does the last model's failure.
 */
export function modelChain(run: AgentRunWorkflowInput): ModelTurns {
  const chain = run.modelChain ?? [];
  if (chain.length < 2) return modelTurns(run);
  const last = chain.length - 1;
  // A fallback is taken as a model behind the network (an activity that heartbeats), whatever the first model was.
  const turns = chain.map((_, index) =>
    modelTurns(index === 0 ? run : { ...run, modelAnswersInProcess: false }, index === last ? undefined : retryBeforeFallback),
  );
  let current = 0;

  async function onCurrentModel<In extends TurnInput, Out>(input: In, take: (turns: ModelTurns, input: In) => Promise<Out>): Promise<Out> {
    for (;;) {
      try {
        return await take(turns[current]!, current === 0 ? input : { ...input, model: chain[current] });
      } catch (failure) {
        if (current === last || !exhaustedRetries(failure)) throw failure;
        const from = chain[current]!;
        const to = chain[++current]!;
        await projection.recordModelFallback({ ...run, from, to, reason: describeFailure(failure) });
      }
    }
  }

  return {
    takeTurn: (input: TurnInput) => onCurrentModel(input, (model, asked) => model.takeTurn(asked)),
    repairAnswer: (input: RepairInput) => onCurrentModel(input, (model, asked) => model.repairAnswer(asked)),
  };
}

/** A model turn that failed for a reason retrying could cure, after every attempt its policy allows. */
function exhaustedRetries(failure: unknown): boolean {
  return failure instanceof ActivityFailure && (failure.retryState === 'MAXIMUM_ATTEMPTS_REACHED' || failure.retryState === 'TIMEOUT');
}
