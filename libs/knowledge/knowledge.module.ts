import { Module } from '@nestjs/common';
import { EmbeddingsModule } from '@pylon/embeddings';
import { KnowledgeSearchService } from './knowledge-search.service';

@Module({
  imports: [EmbeddingsModule],
  providers: [KnowledgeSearchService],
  exports: [KnowledgeSearchService, EmbeddingsModule],
})
export class KnowledgeModule {}
