import { Module } from '@nestjs/common';
import { KnowledgeModule } from '@pylon/knowledge';
import { KnowledgeController } from './knowledge.controller';
import { KnowledgeFilesController } from './knowledge-files.controller';
import { KnowledgeBatchesController } from './knowledge-batches.controller';

@Module({ imports: [KnowledgeModule], controllers: [KnowledgeController, KnowledgeFilesController, KnowledgeBatchesController] })
export class KnowledgeApiModule {}
