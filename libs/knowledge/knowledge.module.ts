import { Module } from '@nestjs/common';
import { EmbeddingsModule } from '@pylon/embeddings';
import { KnowledgeIngestionService } from './knowledge-ingestion.service';
import { KnowledgeSearchService } from './knowledge-search.service';
import { KnowledgeVectorIndexService } from './vector-index.service';

@Module({
  imports: [EmbeddingsModule],
  providers: [KnowledgeSearchService, KnowledgeIngestionService, KnowledgeVectorIndexService],
  exports: [KnowledgeSearchService, KnowledgeIngestionService, KnowledgeVectorIndexService, EmbeddingsModule],
})
export class KnowledgeModule {}
