import type { Readable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import { PylonError, ErrorCode, DOCUMENT_FILE_MEDIA_TYPES, type DocumentFileType } from '@pylon/contracts';
import { PylonConfig } from '@pylon/config';
import { KnowledgeDocument } from '@pylon/db';
import { KnowledgeDocumentRepository } from './repositories/knowledge-document.repository';
import { fingerprint } from '@pylon/idempotency';
import { DocumentFileStore, FileTooLargeError, type StoredFile } from './document-file-store';
import type { FileDetection } from './extraction';
import { KnowledgeDocumentsService, checkMetadata, type DocumentDraft } from './knowledge-documents.service';

/** A file as an upload carries it: its bytes as they arrive, the name the client gave it, and what its bytes are. */
export interface IncomingFile {
  stream: Readable;
  fileName: string | null;
  /** Whether the form reader stopped the stream at its size limit (it ends the stream early instead of failing it). */
  isTruncated(): boolean;
  /** What the bytes are, sniffed as they went by; asked once the stream has ended. */
  sniffed(): Promise<FileDetection>;
}

/** An uploaded file as received: stored, with the name the client gave it and what it was sniffed as. */
export interface ReceivedFile extends StoredFile {
  fileName: string | null;
  detection: FileDetection;
}

/** What an upload may say about its document besides the file. */
export interface FileDocumentFields {
  title?: string;
  metadata?: Record<string, unknown>;
  /** The base the document goes into (the organisation's default when absent); not for a replacement. */
  knowledgeBaseId?: string;
}

const MAX_TITLE_CHARS = 500;

/**
 * Documents from uploaded files: the original is stored (at most KB_MAX_FILE_BYTES), recognised from its
 * bytes (PDF, DOCX, HTML, Markdown, UTF-8 text; anything else is a 415 naming what it is), and accepted
 * as a processing document whose ingestion begins by extracting its text. The original stays downloadable.
 */
@Injectable()
export class KnowledgeFilesService {
  constructor(
    private readonly store: DocumentFileStore,
    private readonly documents: KnowledgeDocumentsService,
    private readonly repository: KnowledgeDocumentRepository,
    private readonly config: PylonConfig,
  ) {}

  /** The largest file an upload may carry (KB_MAX_FILE_BYTES). */
  get maxFileBytes(): number {
    return this.config.kbMaxFileBytes;
  }

  /** Stores an upload's bytes as they arrive, with what they were sniffed as; a 413 past the limit (nothing is kept). */
  async receive(file: IncomingFile): Promise<ReceivedFile> {
    let stored: StoredFile;
    try {
      stored = await this.store.save(file.stream, this.config.kbMaxFileBytes, () => file.isTruncated());
    } catch (error) {
      if (error instanceof FileTooLargeError) {
        throw new PylonError(ErrorCode.PayloadTooLarge, `the file is larger than ${this.config.kbMaxFileBytes} bytes (KB_MAX_FILE_BYTES)`);
      }
      throw error;
    }
    try {
      return { ...stored, fileName: file.fileName, detection: await file.sniffed() };
    } catch (error) {
      await this.store.remove(stored.key);
      throw error;
    }
  }

  /** A received file that will not become a document (a refused or repeated upload). */
  discard(file: ReceivedFile): Promise<void> {
    return this.store.remove(file.key);
  }

  /**
   * A processing document for a received file. The same Idempotency-Key with the same bytes and fields
   * answers the first upload's document (this copy is dropped); with others, 409.
   */
  async create(orgId: string, file: ReceivedFile, fields: FileDocumentFields, idempotencyKey: string | null): Promise<KnowledgeDocument> {
    try {
      const draft = { ...this.draftOf(file, this.recognise(file), fields), knowledgeBaseId: fields.knowledgeBaseId };
      const requestHash = fingerprint({
        org_id: orgId,
        title: draft.title,
        file_sha256: file.sha256,
        metadata: JSON.stringify(draft.metadata),
        knowledge_base_id: fields.knowledgeBaseId ?? '',
      });
      const document = await this.documents.accept(orgId, draft, requestHash, idempotencyKey);
      if (document.fileKey !== file.key) await this.discard(file);
      return document;
    } catch (error) {
      await this.discard(file);
      throw error;
    }
  }

  /**
   * A new revision of one of the organisation's documents from a received file (KnowledgeDocumentsService.replace:
   * search serves the old revision until this one is ready). Title and metadata are kept unless given.
   */
  async replace(
    orgId: string,
    docId: string,
    file: ReceivedFile,
    fields: FileDocumentFields,
    idempotencyKey: string | null,
  ): Promise<KnowledgeDocument> {
    try {
      const fileType = this.recognise(file);
      const document = await this.documents.replace(
        orgId,
        docId,
        {
          content: '',
          title: fields.title,
          metadata: fields.metadata,
          file: { fileName: file.fileName, fileType, fileSize: file.size, fileKey: file.key, sha256: file.sha256 },
        },
        idempotencyKey,
      );
      if (document.fileKey !== file.key) await this.discard(file);
      return document;
    } catch (error) {
      await this.discard(file);
      throw error;
    }
  }

  /** The original of one of the organisation's documents, to download. */
  async download(orgId: string, docId: string): Promise<{ stream: Readable; size: number; fileName: string; mediaType: string }> {
    const document = await this.repository.findById(orgId, docId);
    if (!document) throw PylonError.notFound('no such document');
    if (!document.fileKey || !document.fileType) throw PylonError.notFound('the document was created from text; it has no file');
    const original = await this.store.open(document.fileKey);
    if (!original) throw PylonError.notFound("the document's file is no longer in the media store");
    return {
      ...original,
      fileName: document.fileName ?? `${document.id}.${EXTENSIONS[document.fileType]}`,
      mediaType: DOCUMENT_FILE_MEDIA_TYPES[document.fileType],
    };
  }

  /** What a received file is, as sniffed from its bytes: one of the types Pylon reads, or a 415 naming it (`label` says which file). */
  recognise(file: ReceivedFile, label = 'the file'): DocumentFileType {
    if (file.size === 0) throw PylonError.invalidRequest(`${label} is empty`);
    const { detection } = file;
    if (!detection.supported) {
      throw new PylonError(
        ErrorCode.UnsupportedMediaType,
        `${label} is ${detection.detected}; Pylon reads PDF, DOCX, HTML, Markdown and plain text (UTF-8)`,
      );
    }
    return detection.type;
  }

  /** The document a received file becomes: its text still to extract, titled by its name unless given one. */
  draftOf(file: ReceivedFile, type: DocumentFileType, fields: FileDocumentFields): DocumentDraft {
    return {
      title: fields.title ?? titleFromFileName(file.fileName),
      content: '',
      metadata: checkMetadata(fields.metadata),
      fileName: file.fileName,
      fileType: type,
      fileSize: file.size,
      fileKey: file.key,
    };
  }
}

const EXTENSIONS: Record<DocumentFileType, string> = { pdf: 'pdf', docx: 'docx', html: 'html', markdown: 'md', text: 'txt' };

/** The upload's name as the document's title when none is given ("Untitled file" when the client sent none). */
function titleFromFileName(fileName: string | null): string {
  const name = fileName?.trim();
  return name ? name.slice(0, MAX_TITLE_CHARS) : 'Untitled file';
}
