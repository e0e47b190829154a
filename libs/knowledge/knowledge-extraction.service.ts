import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { ExtractionStep } from '@pylon/contracts';
import { PylonConfig } from '@pylon/config';
import { KnowledgeDocumentRepository } from './repositories/knowledge-document.repository';
import { DocumentFileStore } from './document-file-store';
import { ExtractionFailure, ExtractionPool, type ExtractionLimits, type ExtractionLoad } from './extraction';
import { isSuperseded } from './revision';

/**
 * The first step of ingesting an uploaded file: its text (Markdown headings for sections, page offsets for
 * a PDF), extracted from the original in the media store into the document's content. A document made from
 * text, or one whose text an earlier attempt already stored, has nothing to extract.
 */
@Injectable()
export class KnowledgeExtractionService implements OnModuleDestroy {
  private readonly pool: ExtractionPool;
  private readonly limits: ExtractionLimits;

  constructor(
    private readonly documents: KnowledgeDocumentRepository,
    private readonly files: DocumentFileStore,
    config: PylonConfig,
  ) {
    this.pool = new ExtractionPool({
      threads: config.kbExtractionThreads,
      timeoutMs: config.kbExtractionTimeoutSeconds * 1000,
      pageTimeoutMs: config.kbExtractionPageTimeoutSeconds * 1000,
      heapMb: config.kbExtractionHeapMb,
    });
    this.limits = {
      maxTextChars: config.kbMaxExtractedChars,
      maxUnpackedBytes: config.kbMaxUnpackedBytes,
      maxInflatedStreamBytes: config.kbMaxInflatedStreamBytes,
      maxPdfPages: config.kbMaxPdfPages,
      maxTextItemsPerPage: config.kbMaxTextItemsPerPage,
    };
  }

  /** Files being read now, files waiting for a thread, and the threads there may be. */
  get load(): ExtractionLoad {
    return this.pool.load;
  }

  async onModuleDestroy(): Promise<void> {
    await this.pool.close();
  }

  async extractText(
    orgId: string,
    docId: string,
    revision: number,
    onProgress?: (done: number, total: number) => void,
    signal?: AbortSignal,
  ): Promise<ExtractionStep> {
    const document = await this.documents.findById(orgId, docId);
    if (!document) return { exists: false };
    // Superseded, final already, or extracted by an earlier attempt: the next step sees which.
    if (isSuperseded(document, revision) || document.status !== 'processing' || document.textExtracted) return { exists: true, extracted: false };
    if (!document.fileKey || !document.fileType) throw new ExtractionFailure('the document has no file to read');
    const { text, pageStarts } = await this.pool.extract(this.files.path(document.fileKey), document.fileType, {
      limits: this.limits,
      onProgress,
      signal,
    });
    const saved = await this.documents.saveExtractedText(orgId, docId, revision, text, pageStarts);
    return { exists: true, extracted: saved };
  }
}
