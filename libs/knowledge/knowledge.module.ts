import { Module } from '@nestjs/common';
import { EmbeddingsModule } from '@pylon/embeddings';
import { KnowledgeIngestionService } from './knowledge-ingestion.service';
import { KnowledgeSearchService } from './knowledge-search.service';

@Module({
  imports: [EmbeddingsModule],
  providers: [KnowledgeSearchService, KnowledgeIngestionService],
  exports: [KnowledgeSearchService, KnowledgeIngestionService, EmbeddingsModule],
})
export class KnowledgeModule {}
