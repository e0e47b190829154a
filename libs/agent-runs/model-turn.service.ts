import { Injectable } from '@nestjs/common';
import {
  outputMismatchError,
  type AgentTurn,
  type AnsweredTurn,
  type OutputRepair,
  type ToolCall,
  type RepairInput,
  type TranscriptEntry,
  type TurnInput,
} from '@pylon/contracts';
import { AgentRun, AgentVersion, Transactions } from '@pylon/db';
import { AgentRunRepository } from './repositories/agent-run.repository';
import { ConversationRepository } from './repositories/conversation.repository';
import { LlmService, toolSpecs } from '@pylon/llm';
import { ModelCredentialsService } from '@pylon/model-credentials';
import { AgentVersions } from './agent-versions';
import { ConversationContext } from './conversation-context';
import { OutputMismatchError, RunAlreadyFinishedError, RunNotFoundError } from './run-errors';
import { RunEventsService, outputDelta } from './run-events.service';
import { RunMeteringService } from './run-metering.service';
import { runEvent, structuredRunEvent } from './run-view';
import { checkAnswer } from './structured-output';
import { planCall } from './tools/tool-plan';
import { answerRecord } from './required-actions.service';

/** What one model turn is asked with: the workflow's TurnInput (a RepairInput on a repair turn) without the run's identity. */
export type ModelTurn = Pick<TurnInput, 'transcript' | 'mcpTools' | 'answered' | 'model'> & Partial<Pick<RepairInput, 'repair'>>;

/** A run's model turns, for the worker: the call, its structured answer, its metering, and what the turn ends in. */
@Injectable()
export class ModelTurnService {
  constructor(
    private readonly runs: AgentRunRepository,
    private readonly versions: AgentVersions,
    private readonly llm: LlmService,
    private readonly runEvents: RunEventsService,
    private readonly conversations: ConversationRepository,
    private readonly transactions: Transactions,
    private readonly metering: RunMeteringService,
    private readonly credentials: ModelCredentialsService,
    private readonly context: ConversationContext,
  ) {}

  /**
   * One model turn: records the tool outputs it goes on from (when it is given them), marks the run
   * running (a no-op after the first turn), asks the model, records the
   * turn's tokens with its debit (RunMeteringService), and records an answer at once: the run succeeded,
   * with its event and deliveries, in one statement (with the turn's tokens too when it was free). A version
   * with a response format has its answer checked against the schema first: one that misses it is handed
   * back (`off_schema`, with an `output_repair` event) for the repair turn, which fails the run if it misses
   * again. A retried turn whose answer was already recorded hands back the event if it was never announced.
   */
  take(orgId: string, runId: string, turn: ModelTurn, signal: AbortSignal): Promise<AgentTurn> {
    return this.turn(orgId, runId, turn, signal);
  }

  /** The repair turn: the run succeeds with an answer that matches the schema, or fails naming the fault. */
  async repair(orgId: string, runId: string, turn: ModelTurn & { repair: OutputRepair }, signal: AbortSignal): Promise<AnsweredTurn> {
    const reply = await this.turn(orgId, runId, turn, signal);
    if (reply.kind === 'answered') return reply;
    throw new OutputMismatchError(outputMismatchError('/ the repair turn called tools instead of answering'));
  }

  private async turn(orgId: string, runId: string, turn: ModelTurn, signal: AbortSignal): Promise<AgentTurn> {
    const { transcript, mcpTools = [], repair, answered } = turn;
    const started = await this.runs.markRunning(orgId, runId, answered && answerRecord(answered));
    if (!started) throw new RunNotFoundError(runId);
    const { run } = started;
    if (run.status === 'succeeded') return { kind: 'answered', eventId: await this.runs.unannouncedEvent(orgId, runId) };
    if (run.status !== 'running') throw new RunAlreadyFinishedError(runId, run.status);
    const version = await this.versions.find(orgId, run.agentVersionId);
    if (!version) throw new RunNotFoundError(runId);
    // An attempt of this turn made these calls, and its result was lost with its worker: the same calls
    // again, so that the ids the caller was shown (and may be answering) stay the run's, and nothing is asked twice.
    const lost = callsNotInTranscript(started.toolCallsLogged, transcript);
    if (lost.length > 0) return { kind: 'tool_calls', calls: lost.map((call) => planCall(call, version.tools)) };
    // A fallback model takes the turn only when the version names it.
    const model = turn.model && version.fallbackModels.includes(turn.model) ? turn.model : version.model;
    const key = await this.credentials.keyFor(orgId, model);
    const tools = toolSpecs(version.tools, mcpTools);
    const firstTurn = transcript.length === 0 && !repair;
    const history = await this.context.history({ run, version, model, apiKey: key.apiKey, tools, firstTurn }, signal);
    // A structured answer is shown once it is checked: it arrives whole, with the run's final event.
    const output = version.responseFormat ? null : this.runEvents.outputRecorder(orgId, runId);
    const price = await this.metering.priceFor(orgId, model, key.source);
    try {
      await this.metering.requireCanPay(orgId, runId, price);
      const reply = await this.llm.generate(model, {
        orgId,
        ...(key.apiKey !== undefined && { apiKey: key.apiKey }),
        instructions: version.instructions,
        input: run.input,
        temperature: version.temperature,
        maxOutputTokens: version.maxOutputTokens,
        tools,
        responseFormat: version.responseFormat,
        history: history.entries,
        transcript,
        signal,
        ...(repair && { repair }),
        ...(output && { onDelta: (text: string) => output.add(text) }),
      });
      /** A free turn that answered plainly: recorded with the answer, in the statement that records it. */
      const turnWithAnswer =
        reply.kind === 'answer' && !version.responseFormat ? this.metering.freeTurn(model, price, reply.usage, key.source) : null;
      if (!turnWithAnswer) await this.metering.recordTurn(orgId, runId, model, price, reply.usage, key.source);
      if (reply.kind === 'tool_calls' && repair)
        throw new OutputMismatchError(outputMismatchError('/ the repair turn called tools instead of answering'));
      // The last deltas go out with what the turn ends in: one write fewer per turn.
      const unwritten = (await output?.takeUnwritten()) ?? [];
      if (reply.kind === 'tool_calls') {
        // The calls and the conversation's items that carry them commit together: a retried turn that finds
        // the calls logged hands them back as they are, so their items must already be there.
        await this.transactions.run(async (manager) => {
          await this.runEvents.recordToolCalls(orgId, runId, reply.calls, unwritten, manager);
          await this.conversations.appendItems(
            orgId,
            runId,
            reply.calls.map((call) => ({ type: 'tool_call', data: { call_id: call.id, name: call.name, arguments: call.arguments } })),
            manager,
          );
        });
        return {
          kind: 'tool_calls',
          calls: reply.calls.map((call) => planCall(call, version.tools)),
          ...(reply.content ? { content: reply.content } : {}),
        };
      }
      if (!version.responseFormat) {
        const eventId = await this.runs.markSucceeded(orgId, run, reply.text, runEvent, unwritten.map(outputDelta), turnWithAnswer);
        return { kind: 'answered', eventId };
      }
      const checked = checkAnswer(version, reply.text);
      if (checked.ok) return { kind: 'answered', eventId: await this.runs.markSucceeded(orgId, run, reply.text, structuredRunEvent(checked.value)) };
      if (repair) throw new OutputMismatchError(outputMismatchError(checked.fault));
      await this.runEvents.recordOutputRepair(orgId, runId, checked.fault);
      return { kind: 'off_schema', repair: { answer: reply.text, fault: checked.fault } };
    } finally {
      output?.discard();
    }
  }
}

/** The logged calls the workflow's transcript does not hold: made by an earlier attempt of the turn it asks for now. */
function callsNotInTranscript(logged: ToolCall[], transcript: TranscriptEntry[]): ToolCall[] {
  const known = new Set(transcript.flatMap((entry) => (entry.role === 'assistant' ? entry.toolCalls.map((call) => call.id) : [])));
  return logged.filter((call) => !known.has(call.id));
}
