import type { StoredRunEvent } from '@pylon/agent-runs';
import { functionCallItem, messageItem, outputText, type PendingAction, type ResponseObject } from './response-object';

/** One semantic event of a streamed response, as the Responses API sends it (`event: <type>`, the same `type` in its data). */
export interface ResponseStreamEvent {
  type: string;
  sequence_number: number;
  [field: string]: unknown;
}

/**
 * A run's events as a response's semantic stream: `response.created`, `response.in_progress` when it starts, the
 * message's `output_item.added` and `content_part.added` before its first text, an `output_text.delta` per piece,
 * then the `.done` events and `response.completed`, or `response.failed`. Sequence numbers rise from 0, one per event,
 * and depend only on the run's event log: a stream read again from its start numbers every event as before, which
 * is how `starting_after` resumes one.
 */
export class ResponseEventTranslator {
  private sequence = 0;
  private text = '';
  private opened = false;
  private inProgress = false;

  constructor(private readonly runId: string) {}

  /**
   * Always the response as it was created (queued): the stream is a function of the run's log alone, so a replay
   * numbers it alike. A run going on with the outputs of its function calls is in progress from the start.
   */
  created(response: ResponseObject, continuing = false): ResponseStreamEvent[] {
    const fresh = { ...response, status: 'queued' as const, completed_at: null, output: [], usage: null, error: null };
    const events = [this.event('response.created', { response: fresh })];
    if (continuing) events.push(this.startedEvent(fresh));
    return events;
  }

  /**
   * The run waits for the outputs of its function calls: each call as an output item with its arguments, then
   * `response.completed` with them (the next response goes on from there). Null for a wait the stream cannot
   * end with (a person's approval, answered through Pylon's API): the stream goes on waiting.
   */
  waiting(action: PendingAction, response: () => ResponseObject): ResponseStreamEvent[] | null {
    if (action.type !== 'submit_tool_outputs') return null;
    const events: ResponseStreamEvent[] = [];
    if (!this.inProgress) events.push(this.startedEvent(response()));
    action.tool_calls.forEach((call, index) => {
      const outputIndex = (this.opened ? 1 : 0) + index;
      const item = functionCallItem(call, 'in_progress');
      events.push(
        this.event('response.output_item.added', { output_index: outputIndex, item: { ...item, arguments: '' } }),
        this.event('response.function_call_arguments.delta', { item_id: item.id, output_index: outputIndex, delta: call.arguments }),
        this.event('response.function_call_arguments.done', { item_id: item.id, output_index: outputIndex, arguments: call.arguments }),
        this.event('response.output_item.done', { output_index: outputIndex, item: functionCallItem(call, 'completed') }),
      );
    });
    events.push(this.event('response.completed', { response: response() }));
    return events;
  }

  /** The semantic events a run event makes; `current` is the response while it runs. */
  translate(event: StoredRunEvent, current: () => ResponseObject): ResponseStreamEvent[] {
    if (event.type === 'running' && !this.inProgress) return [this.startedEvent(current())];
    if (event.type === 'output_delta') return this.delta(String((event.data as { text?: unknown }).text ?? ''), current);
    return [];
  }

  /** The run ended: the message's `.done` events (with all its text at once if none streamed), then the response's own. */
  finished(response: ResponseObject): ResponseStreamEvent[] {
    const events: ResponseStreamEvent[] = [];
    if (response.status === 'completed') {
      const message = response.output.find((item) => item.type === 'message');
      const whole = message?.content[0]?.text ?? this.text;
      if (whole.length > this.text.length) events.push(...this.delta(whole.slice(this.text.length), () => response));
      if (this.opened) {
        events.push(
          this.event('response.output_text.done', { ...this.position(), text: this.text, logprobs: [] }),
          this.event('response.content_part.done', { ...this.position(), part: outputText(this.text) }),
          this.event('response.output_item.done', { output_index: 0, item: messageItem(this.runId, this.text, 'completed') }),
        );
      }
      events.push(this.event('response.completed', { response }));
    } else {
      events.push(this.event('response.failed', { response }));
    }
    return events;
  }

  private startedEvent(response: ResponseObject): ResponseStreamEvent {
    this.inProgress = true;
    return this.event('response.in_progress', { response: { ...response, status: 'in_progress' } });
  }

  private delta(text: string, current: () => ResponseObject): ResponseStreamEvent[] {
    if (text.length === 0) return [];
    const events: ResponseStreamEvent[] = [];
    if (!this.inProgress) events.push(this.startedEvent(current()));
    if (!this.opened) {
      this.opened = true;
      events.push(
        this.event('response.output_item.added', { output_index: 0, item: { ...messageItem(this.runId, '', 'in_progress'), content: [] } }),
        this.event('response.content_part.added', { ...this.position(), part: outputText('') }),
      );
    }
    this.text += text;
    events.push(this.event('response.output_text.delta', { ...this.position(), delta: text, logprobs: [] }));
    return events;
  }

  private position() {
    return { item_id: messageItem(this.runId, '', 'in_progress').id, output_index: 0, content_index: 0 };
  }

  private event(type: string, fields: Record<string, unknown>): ResponseStreamEvent {
    return { type, sequence_number: this.sequence++, ...fields };
  }
}
