import { Module } from '@nestjs/common';
import { KnowledgeModule } from '@pylon/knowledge';
import { KnowledgeController } from './knowledge.controller';
import { KnowledgeDocumentsService } from './knowledge-documents.service';

@Module({ imports: [KnowledgeModule], controllers: [KnowledgeController], providers: [KnowledgeDocumentsService] })
export class KnowledgeApiModule {}
