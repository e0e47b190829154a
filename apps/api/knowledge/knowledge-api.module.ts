import { Module } from '@nestjs/common';
import { KnowledgeModule } from '@pylon/knowledge';
import { KnowledgeController } from './knowledge.controller';

@Module({ imports: [KnowledgeModule], controllers: [KnowledgeController] })
export class KnowledgeApiModule {}
