import { Injectable } from '@nestjs/common';
import { estimateTokens, LlmService, LlmUnavailableError, sentences } from '@pylon/llm';
import { ModelCredentialsService } from '@pylon/model-credentials';
import type { CompactionPlan } from './conversation-history';
import { RunMeteringService } from './run-metering.service';

const COMPACTION_INSTRUCTIONS = [
  'You summarise the beginning of a conversation between a user and an assistant so that the assistant can go on without it.',
  'Keep every fact the user stated (names, numbers, identifiers, dates, preferences, decisions) and what was agreed or done,',
  'as short statements, one per line, oldest first. Keep what the earlier summary says. Leave out greetings and small talk.',
].join(' ');

/**
 * Summaries of a conversation's oldest turns when its history no longer fits the model's context: made by the
 * version's model (a metered turn of the run, on the same key), or, for an offline model, extractively: what the
 * user stated, in order, after the earlier summary, as far as the summary's budget goes (deterministic).
 */
@Injectable()
export class ConversationCompactor {
  constructor(
    private readonly llm: LlmService,
    private readonly credentials: ModelCredentialsService,
    private readonly metering: RunMeteringService,
  ) {}

  async summarise(orgId: string, runId: string, modelId: string, plan: CompactionPlan, maxTokens: number, signal: AbortSignal): Promise<string> {
    if (this.llm.answersInProcess(modelId)) return extractiveSummary(plan, maxTokens);
    const key = await this.credentials.keyFor(orgId, modelId);
    const price = await this.metering.priceFor(orgId, modelId, key.source);
    await this.metering.requireCanPay(orgId, runId, price);
    const reply = await this.llm.generate(modelId, {
      orgId,
      ...(key.apiKey !== undefined && { apiKey: key.apiKey }),
      instructions: COMPACTION_INSTRUCTIONS,
      input: transcriptOf(plan),
      temperature: 0,
      maxOutputTokens: maxTokens,
      tools: [],
      history: [],
      transcript: [],
      responseFormat: null,
      signal,
    });
    await this.metering.recordTurn(orgId, runId, modelId, price, reply.usage, key.source);
    if (reply.kind !== 'answer' || !reply.text.trim()) throw new LlmUnavailableError(`${modelId} gave no summary of the earlier conversation`);
    return reply.text.trim();
  }
}

/** What the summary is made of, as the summarising model reads it. */
function transcriptOf(plan: CompactionPlan): string {
  const lines = plan.previous ? [`Earlier summary:\n${plan.previous}`, ''] : [];
  for (const item of plan.items) {
    if (item.type === 'input') lines.push(`User: ${String(item.data.text)}`);
    else if (item.type === 'answer') lines.push(`Assistant: ${String(item.data.text)}`);
    else if (item.type === 'tool_call') lines.push(`Assistant called ${String(item.data.name)}(${String(item.data.arguments)})`);
    else if (item.type === 'tool_output') lines.push(`Tool output: ${String(item.data.output)}`);
  }
  return lines.join('\n');
}

/** The earlier summary's lines, then each statement the user made (not their questions), once, until the budget is spent. */
export function extractiveSummary(plan: CompactionPlan, maxTokens: number): string {
  const lines: string[] = [];
  const seen = new Set<string>();
  const add = (line: string): boolean => {
    if (seen.has(line)) return true;
    if (estimateTokens([...lines, line].join('\n')) > maxTokens) return false;
    seen.add(line);
    lines.push(line);
    return true;
  };
  for (const line of plan.previous?.split('\n') ?? []) if (line.trim() && !add(line)) return lines.join('\n');
  for (const item of plan.items) {
    if (item.type !== 'input') continue;
    for (const sentence of sentences(String(item.data.text))) {
      const statement = sentence.replace(/\s+/g, ' ').trim();
      if (statement.length < 3 || statement.endsWith('?')) continue;
      if (!add(`- ${statement}`)) return lines.join('\n');
    }
  }
  return lines.join('\n');
}
