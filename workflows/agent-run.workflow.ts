import {
  ActivityFailure,
  ApplicationFailure,
  CancellationScope,
  condition,
  defineSignal,
  getExternalWorkflowHandle,
  isCancellation,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  uuid4,
  type RetryPolicy,
} from '@temporalio/workflow';
import {
  ACTION_EXPIRED_ERROR,
  ACTION_EXPIRED_FAILURE,
  DEFAULT_ACTION_TIMEOUT_SECONDS,
  MAX_AGENT_TURNS,
  NON_RETRYABLE_LLM_ERROR,
  RUN_ALREADY_FINISHED_ERROR,
  RUN_CANCELLED_ERROR,
  RUN_NOT_FOUND_ERROR,
  SIGNALS,
  agentRunWorkflowId,
  refusedCallOutput,
  type ActionAnswer,
  type ActionAnsweredSignal,
  type AgentRunActivities,
  type AgentRunOutcome,
  type AgentRunWorkflowInput,
  type PlannedToolCall,
  type RequiredActionType,
  type ToolCall,
  type TranscriptEntry,
} from '@pylon/contracts';
import { announce } from './announce';
import { tellFiringRunFinished } from './scheduled-run-finished';
import { describeFailure } from './failure-reason';
import { mcpActivities } from './mcp-tools';

/** The API records an action's answer, then signals it here; the run goes on with it. */
export const actionAnswered = defineSignal<[ActionAnsweredSignal]>(SIGNALS.actionAnswered);
/** A turn of the same conversation ended: the turn that waits for it checks whether it may go. */
export const conversationTurnFreed = defineSignal(SIGNALS.conversationTurnFreed);

const databaseRetry: RetryPolicy = {
  initialInterval: '1 second',
  backoffCoefficient: 2,
  maximumInterval: '30 seconds',
  nonRetryableErrorTypes: [RUN_NOT_FOUND_ERROR],
};

/**
 * Short statements (recording a failure, an action, the order of turns): local activities, run inside
 * the workflow task that needs them, so they cost no task round trip. Retried until the database is back.
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
 * An agent run. A conversation's turn first waits until the turns accepted before it are final. Then
 * the model takes turns (the first marks the run running), and the tools it calls are run: Pylon's own
 * as activities (after a person approved them, when the version says so), the customer's by waiting for
 * their outputs. Waiting is free: the workflow sleeps until the API signals the answer, up to the
 * version's action timeout, and that time does not count against the run timeout. The turn that
 * answers records the output, so the caller sees the run succeeded as soon as the model is done; a
 * failure is recorded with a readable error. Either way the event is announced to webhooks, and the
 * conversation's next turn is told it may go. A cancelled run ends `failed` with `cancelled`.
 */
export async function agentRunWorkflow(run: AgentRunWorkflowInput): Promise<AgentRunOutcome> {
  const llm = modelTurns(run);
  const clock = new ActiveTime(run.runTimeoutSeconds * 1000);
  const actions = new RequiredActions(run);
  const mcp = mcpActivities(run);
  let turnFreed = false;
  setHandler(conversationTurnFreed, () => void (turnFreed = true));

  /** The tool calls' results for the model, in the calls' order. */
  async function runTools(calls: PlannedToolCall[]): Promise<TranscriptEntry[]> {
    const results = new Map<string, string>();
    const gated = calls.filter((call) => call.runner === 'pylon' && call.approval);
    const approvals = gated.length > 0 ? await actions.waitFor('approve_tool_calls', gated) : null;
    for (const call of calls.filter((candidate) => candidate.runner === 'pylon')) {
      const decision = approvals?.type === 'approve_tool_calls' ? approvals.approvals.find((a) => a.tool_call_id === call.id) : undefined;
      if (decision && !decision.approve) {
        results.set(call.id, refusedCallOutput(decision.reason));
      } else {
        results.set(call.id, await clock.counting(() => (call.mcp ? mcp.callMcpTool({ ...run, call }) : tools.runTool({ ...run, call }))));
      }
    }
    const customers = calls.filter((call) => call.runner === 'customer');
    if (customers.length > 0) {
      const answer = await actions.waitFor('submit_tool_outputs', customers);
      if (answer.type === 'submit_tool_outputs') for (const output of answer.tool_outputs) results.set(output.tool_call_id, output.output);
    }
    return calls.map((call) => ({ role: 'tool', toolCallId: call.id, content: results.get(call.id) ?? '' }));
  }

  try {
    if (run.conversation) {
      while (!(await projection.isTurnFree(run))) {
        await condition(() => turnFreed);
        turnFreed = false;
      }
    }
    const transcript: TranscriptEntry[] = [];
    const mcpTools = run.mcpVersionId ? await clock.counting(() => mcp.listMcpTools(run)) : undefined;
    for (let turn = 0; ; turn++) {
      if (turn === MAX_AGENT_TURNS) throw ApplicationFailure.nonRetryable(`the agent called tools ${MAX_AGENT_TURNS} times without answering`);
      const reply = await clock.counting(() => llm.takeTurn({ ...run, transcript, ...(mcpTools ? { mcpTools } : {}) }));
      if (reply.kind === 'answered') {
        await announce(run.orgId, reply.eventId);
        return { status: 'succeeded' };
      }
      transcript.push({ role: 'assistant', toolCalls: reply.calls.map(asModelCall), ...(reply.content ? { content: reply.content } : {}) });
      transcript.push(...(await runTools(reply.calls)));
    }
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
  } finally {
    if (run.conversation) await CancellationScope.nonCancellable(() => freeNextTurn(run));
    if (run.scheduleFiringWorkflowId) await CancellationScope.nonCancellable(() => tellFiringRunFinished(run.scheduleFiringWorkflowId!));
  }
}

/** The run timeout counts the time the run works (model turns, tools), never the time it waits. */
class ActiveTime {
  private spentMs = 0;

  constructor(private readonly budgetMs: number) {}

  async counting<T>(work: () => Promise<T>): Promise<T> {
    const started = Date.now();
    try {
      return await CancellationScope.withTimeout(Math.max(this.budgetMs - this.spentMs, 1), work);
    } finally {
      this.spentMs += Date.now() - started;
    }
  }
}

/** What the run waits for, and the answers the API signals. */
class RequiredActions {
  private readonly answers = new Map<string, ActionAnswer>();

  constructor(private readonly run: AgentRunWorkflowInput) {
    setHandler(actionAnswered, ({ actionId, answer }) => {
      if (!this.answers.has(actionId)) this.answers.set(actionId, answer);
    });
  }

  /** Records the action, announces it, and sleeps until its answer is signalled or its time runs out. */
  async waitFor(type: RequiredActionType, calls: PlannedToolCall[]): Promise<ActionAnswer> {
    const actionId = uuid4();
    const request = { type, calls: calls.map(asModelCall) };
    await announce(this.run.orgId, await projection.requireAction({ ...this.run, actionId, request }));
    const timeoutMs = (this.run.actionTimeoutSeconds ?? DEFAULT_ACTION_TIMEOUT_SECONDS) * 1000;
    if (await condition(() => this.answers.has(actionId), timeoutMs)) return this.answers.get(actionId)!;
    const closed = await projection.closeAction({ ...this.run, actionId });
    if (closed.kind === 'answered') return closed.answer;
    throw ApplicationFailure.nonRetryable(ACTION_EXPIRED_ERROR, ACTION_EXPIRED_FAILURE);
  }
}

/** The call as the model made it, without who runs it. */
function asModelCall({ id, name, arguments: args }: PlannedToolCall): ToolCall {
  return { id, name, arguments: args };
}

/** Tells the conversation's first unfinished turn that it may go (it checks for itself). */
async function freeNextTurn(run: AgentRunWorkflowInput): Promise<void> {
  const next = await projection.firstUnfinishedTurn(run);
  if (!next || next === run.runId) return;
  try {
    await getExternalWorkflowHandle(agentRunWorkflowId(next)).signal(conversationTurnFreed);
  } catch {
    // Its workflow is not started yet (it checks when it starts) or already gone.
  }
}
