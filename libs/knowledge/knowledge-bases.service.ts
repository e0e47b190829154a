import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { PylonError, ErrorCode } from '@pylon/contracts';
import { KnowledgeBase, type Page, type PageRequest } from '@pylon/db';
import { KnowledgeBaseRepository } from './repositories/knowledge-base.repository';
import { createOnce, fingerprint } from '@pylon/idempotency';
import { DocumentFileStore } from './document-file-store';

/** A knowledge base as the API returns it. */
export interface KnowledgeBaseView {
  knowledge_base_id: string;
  org_id: string;
  name: string;
  description: string | null;
  /** Whether it is the organisation's oldest base, where documents go that name none. */
  is_default: boolean;
  document_count: number;
  created_at: string;
  updated_at: string;
}

export interface NewKnowledgeBaseRequest {
  name: string;
  description?: string | null;
}

export interface KnowledgeBaseUpdate {
  name?: string;
  description?: string | null;
}

/**
 * Knowledge bases: named groups of an organisation's documents, each document in exactly one. The
 * organisation's default base is its oldest; a document that names no base goes there, and when the
 * organisation has none yet, a base named `Default` is created for it.
 */
@Injectable()
export class KnowledgeBasesService {
  constructor(
    private readonly bases: KnowledgeBaseRepository,
    private readonly files: DocumentFileStore,
  ) {}

  /** An Idempotency-Key makes it safe to retry: the same key and body answer the base it made. 409 for a name the organisation has. */
  async create(orgId: string, request: NewKnowledgeBaseRequest, idempotencyKey: string | null): Promise<KnowledgeBaseView> {
    const description = request.description ?? null;
    const requestHash = fingerprint({ name: request.name, description: JSON.stringify(description) });
    const base = await createOnce<KnowledgeBase>(idempotencyKey, requestHash, {
      findByKey: (key) => this.bases.findByIdempotencyKey(orgId, key),
      admit: async () => {},
      insert: async () => {
        const id = randomUUID();
        const outcome = await this.bases.insert(orgId, { id, name: request.name, description, idempotencyKey, requestHash, createdAt: new Date() });
        if (outcome === 'name_taken') throw nameTaken(request.name);
        return outcome === 'inserted' ? this.bases.findById(orgId, id) : null;
      },
    });
    return this.view(orgId, base);
  }

  /** The organisation's bases, newest first. */
  async list(orgId: string, page: PageRequest): Promise<Page<KnowledgeBaseView>> {
    const found = await this.bases.list(orgId, page);
    return { items: await this.views(orgId, found.items), nextCursor: found.nextCursor };
  }

  async get(orgId: string, baseId: string): Promise<KnowledgeBaseView> {
    return this.view(orgId, await this.find(orgId, baseId));
  }

  async update(orgId: string, baseId: string, changes: KnowledgeBaseUpdate): Promise<KnowledgeBaseView> {
    const updated = await this.bases.update(orgId, baseId, changes);
    if (updated === 'name_taken') throw nameTaken(changes.name ?? '');
    if (!updated) throw PylonError.notFound('no such knowledge base');
    return this.view(orgId, updated);
  }

  /**
   * Deletes an empty base; with `cascade`, its documents (and their chunks) too, in one transaction, then
   * their original files. 409 when it holds documents.
   */
  async delete(orgId: string, baseId: string, cascade: boolean): Promise<void> {
    const outcome = await this.bases.delete(orgId, baseId, cascade);
    if (outcome === 'not_found') throw PylonError.notFound('no such knowledge base');
    if (outcome === 'not_empty') {
      throw new PylonError(ErrorCode.KnowledgeBaseNotEmpty, 'the knowledge base holds documents: delete them first, or send cascade=true');
    }
    await Promise.all(outcome.deletedFileKeys.map((key) => this.files.remove(key)));
  }

  /**
   * Refuses (400 naming `field`) any of `baseIds` that is not one of the organisation's bases, as a body
   * naming another organisation's resource is refused elsewhere (a run's agent_version_id).
   */
  async assertExist(orgId: string, baseIds: readonly string[], field: string): Promise<void> {
    if (baseIds.length === 0) return;
    const existing = await this.bases.existingIds(orgId, baseIds);
    const missing = baseIds.find((id) => !existing.has(id));
    if (missing !== undefined) throw PylonError.invalidRequest(`${field}: ${missing} is not a knowledge base of this organisation`);
  }

  /** The base a new document goes to: the one it names (checked by assertExist first), else the organisation's default, made if need be. */
  async baseForDocument(orgId: string, requested: string | undefined): Promise<string> {
    if (requested !== undefined) return requested;
    return (await this.bases.ensureDefault(orgId, randomUUID(), new Date())).id;
  }

  private async find(orgId: string, baseId: string): Promise<KnowledgeBase> {
    const base = await this.bases.findById(orgId, baseId);
    if (!base) throw PylonError.notFound('no such knowledge base');
    return base;
  }

  private async view(orgId: string, base: KnowledgeBase): Promise<KnowledgeBaseView> {
    return (await this.views(orgId, [base]))[0]!;
  }

  /** The views of some of the organisation's bases, with their document counts and which is the default (two queries for all). */
  private async views(orgId: string, bases: KnowledgeBase[]): Promise<KnowledgeBaseView[]> {
    if (bases.length === 0) return [];
    const ids = bases.map((base) => base.id);
    const [counts, defaultBase] = await Promise.all([this.bases.documentCounts(orgId, ids), this.bases.findDefault(orgId)]);
    return bases.map((base) => ({
      knowledge_base_id: base.id,
      org_id: base.orgId,
      name: base.name,
      description: base.description,
      is_default: base.id === defaultBase?.id,
      document_count: counts.get(base.id) ?? 0,
      created_at: base.createdAt.toISOString(),
      updated_at: base.updatedAt.toISOString(),
    }));
  }
}

function nameTaken(name: string): PylonError {
  return new PylonError(ErrorCode.KnowledgeBaseNameTaken, `this organisation already has a knowledge base named ${JSON.stringify(name)}`);
}
