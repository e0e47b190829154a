import { Module } from '@nestjs/common';
import { AgentRunsModule } from '@pylon/agent-runs';
import { ConversationsController } from './conversations.controller';

@Module({ imports: [AgentRunsModule], controllers: [ConversationsController] })
export class ConversationsApiModule {}
