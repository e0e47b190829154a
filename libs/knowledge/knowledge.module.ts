import { Module } from '@nestjs/common';
import { EmbeddingsModule } from '@pylon/embeddings';
import { LimitsModule } from '@pylon/limits';
import { KnowledgeBasesService } from './knowledge-bases.service';
import { KnowledgeDocumentsService } from './knowledge-documents.service';
import { KnowledgeIngestionService } from './knowledge-ingestion.service';
import { KnowledgeSearchService } from './knowledge-search.service';
import { DocumentFileStore } from './document-file-store';
import { KnowledgeExtractionService } from './knowledge-extraction.service';
import { KnowledgeFilesService } from './knowledge-files.service';
import { KnowledgeBatchesService } from './knowledge-batches.service';
import { KnowledgeVectorIndexService } from './vector-index.service';

import { KnowledgeBaseRepository } from './repositories/knowledge-base.repository';
import { KnowledgeBatchRepository } from './repositories/knowledge-batch.repository';
import { KnowledgeChunkRepository } from './repositories/knowledge-chunk.repository';
import { KnowledgeDocumentRepository } from './repositories/knowledge-document.repository';
import { KnowledgeVectorIndexRepository } from './repositories/knowledge-vector-index.repository';

/** Knowledge's rules: bases and documents (API), their ingestion (worker), search (both). Needs the global config, database and Temporal client modules. */
@Module({
  imports: [EmbeddingsModule, LimitsModule],
  providers: [
    KnowledgeBasesService,
    KnowledgeDocumentsService,
    KnowledgeFilesService,
    KnowledgeBatchesService,
    DocumentFileStore,
    KnowledgeSearchService,
    KnowledgeIngestionService,
    KnowledgeExtractionService,
    KnowledgeVectorIndexService,
    KnowledgeBaseRepository,
    KnowledgeDocumentRepository,
    KnowledgeBatchRepository,
    KnowledgeChunkRepository,
    KnowledgeVectorIndexRepository,
  ],
  exports: [
    KnowledgeBasesService,
    KnowledgeDocumentsService,
    KnowledgeFilesService,
    KnowledgeBatchesService,
    KnowledgeSearchService,
    KnowledgeIngestionService,
    KnowledgeExtractionService,
    KnowledgeVectorIndexService,
    EmbeddingsModule,
  ],
})
export class KnowledgeModule {}
