import { Module } from '@nestjs/common';
import { KnowledgeModule } from '@pylon/knowledge';
import { KnowledgeBasesController } from './knowledge-bases.controller';

@Module({ imports: [KnowledgeModule], controllers: [KnowledgeBasesController] })
export class KnowledgeBasesApiModule {}
