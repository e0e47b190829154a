import type { Conversation, ConversationItem, RequiredAction, ToolApprovalsSubmit, ToolOutputsSubmit } from '@pylon/sdk';
import { call } from './client';

export type { Conversation, ConversationItem, RequiredAction };
export type ToolCall = RequiredAction['tool_calls'][number];
export type ToolApproval = ToolApprovalsSubmit['approvals'][number];

/** The most items the playground reads of one conversation. */
const MAX_ITEMS = 2_000;

/** The organisation's conversations, newest first (the first `limit`). */
export function listConversations(limit = 50) {
  return call((pylon) => pylon.conversations.list({ limit }).firstPage());
}

export function createConversation(orgId: string, metadata: Record<string, unknown>): Promise<Conversation> {
  return call((pylon) => pylon.conversations.create({ org_id: orgId, metadata }));
}

/** A turn: a run of the version that sees the conversation's earlier turns (waiting for them if one is not finished). */
export function startTurn(conversationId: string, body: { org_id: string; agent_version_id: string; input: string }) {
  return call((pylon) => pylon.conversations.runs.create(conversationId, body));
}

/** Every item of the conversation, oldest first (pages of 100). */
export function listItems(conversationId: string): Promise<ConversationItem[]> {
  return call(async (pylon) => {
    const items: ConversationItem[] = [];
    for await (const item of pylon.conversations.items(conversationId, { limit: 100 })) {
      items.push(item);
      if (items.length >= MAX_ITEMS) break;
    }
    return items;
  });
}

export function submitToolOutputs(runId: string, outputs: ToolOutputsSubmit['tool_outputs']) {
  return call((pylon) => pylon.agentRuns.submitToolOutputs(runId, { tool_outputs: outputs }));
}

export function approveToolCalls(runId: string, approvals: ToolApproval[]) {
  return call((pylon) => pylon.agentRuns.approveToolCalls(runId, { approvals }));
}

/** What a conversation is called in a list: the title the playground gave it, or its id. */
export function conversationTitle(conversation: Conversation): string {
  const title = conversation.metadata.title;
  return typeof title === 'string' && title.trim() !== '' ? title : `Conversation ${conversation.conversation_id.slice(0, 8)}`;
}
