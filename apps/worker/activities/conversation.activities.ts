import { Injectable } from '@nestjs/common';
import type { ConversationActivities } from '@pylon/contracts';
import { ConversationsService } from '@pylon/agent-runs';

/** Thin adapters between the conversation workflow and the conversations service (its markRunFailed is the agent run's). */
@Injectable()
export class ConversationActivitiesImpl implements Pick<ConversationActivities, 'numberTurn'> {
  constructor(private readonly conversations: ConversationsService) {}

  numberTurn({ orgId, conversationId, runId, seq }: { orgId: string; conversationId: string; runId: string; seq: number }): Promise<void> {
    return this.conversations.numberTurn(orgId, conversationId, runId, seq);
  }
}
