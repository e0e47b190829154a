import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { PylonError, SIGNALS, conversationWorkflowId, type IfBusy } from '@pylon/contracts';
import { Conversation, type Page, type PageRequest } from '@pylon/db';
import { ConversationRepository, type ConversationItem } from './repositories/conversation.repository';
import { createOnce, fingerprint } from '@pylon/idempotency';
import { WorkflowStarter } from '@pylon/temporal';
import { AgentRunsService, type NewRunRequest, type QueuedRun } from './agent-runs.service';

const ITEMS_PAGE_MAX = 100;
const MAX_METADATA_BYTES = 16 * 1024;

/**
 * Conversations: their turns are ordinary agent runs, taken by the conversation's workflow
 * (`conversation:<id>`), which numbers them in the order it accepts them and runs them one at a time in
 * that order, each as its child. The model of each turn sees the items the earlier turns left.
 */
@Injectable()
export class ConversationsService {
  constructor(
    private readonly conversations: ConversationRepository,
    private readonly runs: AgentRunsService,
    private readonly workflows: WorkflowStarter,
  ) {}

  create(orgId: string, metadata: Record<string, unknown>, idempotencyKey: string | null): Promise<Conversation> {
    if (Buffer.byteLength(JSON.stringify(metadata)) > MAX_METADATA_BYTES) {
      throw PylonError.invalidRequest(`metadata is larger than ${MAX_METADATA_BYTES} bytes`);
    }
    const requestHash = fingerprint({ metadata: JSON.stringify(metadata) });
    return createOnce<Conversation>(idempotencyKey, requestHash, {
      findByKey: (key) => this.conversations.findByIdempotencyKey(orgId, key),
      admit: async () => {},
      insert: async () => {
        const conversation: Conversation = { id: randomUUID(), orgId, metadata, turns: 0, idempotencyKey, requestHash, createdAt: new Date() };
        return (await this.conversations.insert(orgId, conversation)) ? conversation : null;
      },
    });
  }

  async get(orgId: string, conversationId: string): Promise<Conversation> {
    const conversation = await this.conversations.findById(orgId, conversationId);
    if (!conversation) throw PylonError.notFound('no such conversation');
    return conversation;
  }

  list(orgId: string, page: PageRequest): Promise<Page<Conversation>> {
    return this.conversations.list(orgId, page);
  }

  /** Its items go; its runs stay readable (the turns it took still run, remembered nowhere); its workflow takes no more turns. */
  async delete(orgId: string, conversationId: string): Promise<void> {
    if (!(await this.conversations.delete(orgId, conversationId))) throw PylonError.notFound('no such conversation');
    await this.workflows.signal(conversationWorkflowId(conversationId), SIGNALS.conversationDeleted, undefined);
  }

  /**
   * Every item turn by turn (each turn's in the order written), after the position `cursor` (a previous
   * page's next_cursor, `<turn>_<seq>` of its last item).
   */
  async items(orgId: string, conversationId: string, cursor: string | undefined, limit: number): Promise<Page<ConversationItem>> {
    const size = Math.min(Math.max(limit, 1), ITEMS_PAGE_MAX);
    const [turn, seq] = cursor ? cursor.split('_').map(Number) : [0, 0];
    const items = await this.conversations.items(orgId, conversationId, { turn: turn!, seq: seq! }, size + 1);
    if (!items) throw PylonError.notFound('no such conversation');
    const page = items.slice(0, size);
    const last = page[page.length - 1];
    return { items: page, nextCursor: items.length > size && last ? `${last.turn}_${last.seq}` : null };
  }

  /** For the conversation's workflow: the number it gave the turn, on the run and the conversation, with the turn's input item. */
  numberTurn(orgId: string, conversationId: string, runId: string, seq: number): Promise<void> {
    return this.conversations.numberTurn(orgId, conversationId, runId, seq);
  }

  /**
   * A turn: a run of the conversation. `enqueue` waits for the earlier turns, `reject` is 409 while one
   * is not final, `interrupt` cancels every earlier turn not final yet (each ends `failed` with
   * `cancelled`) so this one goes next.
   */
  startTurn(orgId: string, conversationId: string, request: NewRunRequest, ifBusy: IfBusy, idempotencyKey: string | null): Promise<QueuedRun> {
    return this.runs.create(orgId, request, idempotencyKey, { conversationId, ifBusy });
  }
}
