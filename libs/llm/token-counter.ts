import { Tiktoken } from 'js-tiktoken/lite';
import { LRUCache } from 'lru-cache';
import type { LlmTurn, TurnUsage } from '@pylon/contracts';
import type { LlmRequest } from './llm-provider';

let encoder: Tiktoken | undefined;

/** OpenAI's o200k_base encoding (the GPT-4o family's), loaded on first use: 2 MB of ranks, once per process. */
function o200k(): Tiktoken {
  if (!encoder) {
    type Ranks = ConstructorParameters<typeof Tiktoken>[0];
    const ranks = require('js-tiktoken/ranks/o200k_base') as Ranks | { default: Ranks };
    encoder = new Tiktoken('default' in ranks ? ranks.default : ranks);
  }
  return encoder;
}

/**
 * The BPE encoder's time grows with the square of a piece's length, and one unbroken run of characters (a
 * base64 blob, a long hash, a tool's `RRRR…`) is one piece: 16 000 such characters took 12–50 s. Runs longer
 * than this are counted in slices of this length instead, within 1% of the exact count on such data.
 */
const LONGEST_ENCODED_RUN = 128;
const LONG_RUN = new RegExp(`\\S{${LONGEST_ENCODED_RUN + 1},}`, 'g');

function encodedLength(text: string): number {
  let tokens = 0;
  let from = 0;
  for (const run of text.matchAll(LONG_RUN)) {
    tokens += o200k().encode(text.slice(from, run.index)).length;
    for (let at = 0; at < run[0].length; at += LONGEST_ENCODED_RUN) tokens += o200k().encode(run[0].slice(at, at + LONGEST_ENCODED_RUN)).length;
    from = run.index + run[0].length;
  }
  return tokens + o200k().encode(text.slice(from)).length;
}

/** Texts most turns repeat (an agent's instructions, its tools' definitions) are counted once: up to this many of them, */
const REMEMBERED_TEXTS = 256;
/** each of at most this many characters, so that the cache holds at most a few MB. */
const REMEMBERED_TEXT_CHARS = 16_384;
const remembered = new LRUCache<string, number>({ max: REMEMBERED_TEXTS });

export function countTokens(text: string): number {
  if (text.length === 0) return 0;
  if (text.length > REMEMBERED_TEXT_CHARS) return encodedLength(text);
  const known = remembered.get(text);
  if (known !== undefined) return known;
  const tokens = encodedLength(text);
  remembered.set(text, tokens);
  return tokens;
}

/** A rough token count (four characters a token): what a history is budgeted in before a provider's count scales it. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** The request's input tokens by the rough count, over the same texts the tokenizer counts. */
export function estimateInputTokens(request: LlmRequest): number {
  return promptTexts(request).reduce((sum, text) => sum + estimateTokens(text), 0);
}

/** Every text the model reads in a turn: instructions, history, input, this run's tool traffic, tool and schema definitions. */
function promptTexts(request: LlmRequest): string[] {
  const texts = [request.instructions, request.input];
  for (const entry of [...request.history, ...request.transcript]) {
    if (entry.role === 'tool') texts.push(entry.content);
    else if ('toolCalls' in entry) texts.push(entry.content ?? '', ...entry.toolCalls.map((call) => `${call.name}${call.arguments}`));
    else texts.push(entry.content);
  }
  if (request.tools.length > 0) texts.push(JSON.stringify(request.tools));
  if (request.responseFormat) texts.push(JSON.stringify(request.responseFormat.schema));
  if (request.repair) texts.push(request.repair.answer, request.repair.fault);
  return texts;
}

function outputText(turn: LlmTurn): string {
  return turn.kind === 'answer' ? turn.text : [turn.content ?? '', ...turn.calls.map((call) => `${call.name}${call.arguments}`)].join('');
}

/** A turn's tokens counted with the tokenizer, for a provider that does not count them itself. */
export function countTurn(request: LlmRequest, turn: LlmTurn): TurnUsage {
  return {
    inputTokens: promptTexts(request).reduce((sum, text) => sum + countTokens(text), 0),
    outputTokens: countTokens(outputText(turn)),
    countedBy: 'tokenizer',
  };
}
