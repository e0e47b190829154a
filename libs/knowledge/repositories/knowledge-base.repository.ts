import { Injectable } from '@nestjs/common';
import { DataSource, QueryFailedError } from 'typeorm';
import { KnowledgeBase, Page, PageRequest, paginate, TOUCH_UPDATED_AT, returnedRows } from '@pylon/db';

const UNIQUE_VIOLATION = '23505';
/** The name every organisation's first base gets when a document needs one and it has none. */
const DEFAULT_BASE_NAME = 'Default';

export interface KnowledgeBaseChanges {
  name?: string;
  description?: string | null;
}

function isUniqueViolation(error: unknown): boolean {
  return error instanceof QueryFailedError && (error.driverError as { code?: string } | undefined)?.code === UNIQUE_VIOLATION;
}

/** Knowledge bases. Every method takes the organisation; rules (default base, conflicts) live in KnowledgeBasesService. */
@Injectable()
export class KnowledgeBaseRepository {
  constructor(private readonly db: DataSource) {}

  private get bases() {
    return this.db.getRepository(KnowledgeBase);
  }

  /**
   * Inserts a base: `inserted`, or what it collided with and nothing written: `key_taken` (this
   * Idempotency-Key was used by the organisation) or `name_taken` (it has a base of that name).
   */
  async insert(
    orgId: string,
    base: Pick<KnowledgeBase, 'id' | 'name' | 'description' | 'idempotencyKey' | 'requestHash' | 'createdAt'>,
  ): Promise<'inserted' | 'key_taken' | 'name_taken'> {
    const rows = (await this.db.query(
      `INSERT INTO knowledge_bases (id, org_id, name, description, idempotency_key, request_hash, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $7)
       ON CONFLICT DO NOTHING
       RETURNING id`,
      [base.id, orgId, base.name, base.description, base.idempotencyKey, base.requestHash, base.createdAt],
    )) as unknown[];
    if (rows.length > 0) return 'inserted';
    if (base.idempotencyKey !== null && (await this.findByIdempotencyKey(orgId, base.idempotencyKey))) return 'key_taken';
    return 'name_taken';
  }

  findById(orgId: string, baseId: string): Promise<KnowledgeBase | null> {
    return this.bases.findOneBy({ id: baseId, orgId });
  }

  findByIdempotencyKey(orgId: string, idempotencyKey: string): Promise<KnowledgeBase | null> {
    return this.bases.findOneBy({ orgId, idempotencyKey });
  }

  /** The organisation's bases, newest first. */
  list(orgId: string, page: PageRequest): Promise<Page<KnowledgeBase>> {
    return paginate(this.bases.createQueryBuilder('base').where('base.org_id = :orgId', { orgId }), page);
  }

  /** The organisation's default base: its oldest (created_at, id), or null when it has none. */
  async findDefault(orgId: string): Promise<KnowledgeBase | null> {
    return this.bases
      .createQueryBuilder('base')
      .where('base.org_id = :orgId', { orgId })
      .orderBy('base.created_at', 'ASC')
      .addOrderBy('base.id', 'ASC')
      .getOne();
  }

  /**
   * The organisation's default base, created as `Default` first when it has no base at all. Two
   * requests racing here create one (the unique name makes the loser's insert write nothing), and both
   * read back the oldest.
   */
  async ensureDefault(orgId: string, id: string, createdAt: Date): Promise<KnowledgeBase> {
    await this.db.query(
      `INSERT INTO knowledge_bases (id, org_id, name, description, created_at, updated_at)
       SELECT $1, $2, $3, NULL, $4, $4 WHERE NOT EXISTS (SELECT 1 FROM knowledge_bases WHERE org_id = $2)
       ON CONFLICT (org_id, name) DO NOTHING`,
      [id, orgId, DEFAULT_BASE_NAME, createdAt],
    );
    return (await this.findDefault(orgId))!;
  }

  /** Of `baseIds`, those that are the organisation's bases. */
  async existingIds(orgId: string, baseIds: readonly string[]): Promise<Set<string>> {
    const rows = (await this.db.query(`SELECT id FROM knowledge_bases WHERE org_id = $1 AND id = ANY($2::uuid[])`, [orgId, baseIds])) as Array<{
      id: string;
    }>;
    return new Set(rows.map((row) => row.id));
  }

  /** For each of `baseIds`: how many documents it holds (of any status). */
  async documentCounts(orgId: string, baseIds: readonly string[]): Promise<Map<string, number>> {
    const rows = (await this.db.query(
      `SELECT knowledge_base_id AS id, count(*)::int AS n FROM knowledge_documents
        WHERE org_id = $1 AND knowledge_base_id = ANY($2::uuid[]) GROUP BY knowledge_base_id`,
      [orgId, baseIds],
    )) as Array<{ id: string; n: number }>;
    return new Map(rows.map((row) => [row.id, row.n]));
  }

  /** Changes a base: the base as it is now, null when it is not the organisation's, `name_taken` (nothing written) for a duplicate name. */
  async update(orgId: string, baseId: string, changes: KnowledgeBaseChanges): Promise<KnowledgeBase | null | 'name_taken'> {
    const params: unknown[] = [baseId, orgId];
    const sets: string[] = [TOUCH_UPDATED_AT];
    if (changes.name !== undefined) sets.push(`name = $${params.push(changes.name)}`);
    if (changes.description !== undefined) sets.push(`description = $${params.push(changes.description)}`);
    try {
      const updated = returnedRows(
        await this.db.query(`UPDATE knowledge_bases SET ${sets.join(', ')} WHERE id = $1 AND org_id = $2 RETURNING id`, params),
      );
      return updated.length > 0 ? this.findById(orgId, baseId) : null;
    } catch (error) {
      if (isUniqueViolation(error)) return 'name_taken';
      throw error;
    }
  }

  /**
   * Deletes a base in one transaction: `not_empty` (nothing written) when it holds documents and
   * `cascade` is false; with `cascade`, its documents go first (their chunks and drafts by ON DELETE
   * CASCADE). The base's row is locked first, so a document being added to it concurrently either
   * lands before (and is counted, or deleted with it) or fails its foreign key.
   */
  async delete(orgId: string, baseId: string, cascade: boolean): Promise<{ deletedFileKeys: string[] } | 'not_found' | 'not_empty'> {
    return this.db.transaction(async (manager) => {
      const locked = (await manager.query(`SELECT id FROM knowledge_bases WHERE id = $1 AND org_id = $2 FOR UPDATE`, [baseId, orgId])) as unknown[];
      if (locked.length === 0) return 'not_found';
      const deletedFileKeys: string[] = [];
      if (cascade) {
        const deleted = returnedRows<{ file_key: string | null }>(
          await manager.query(`DELETE FROM knowledge_documents WHERE org_id = $1 AND knowledge_base_id = $2 RETURNING file_key`, [orgId, baseId]),
        );
        for (const { file_key } of deleted) if (file_key) deletedFileKeys.push(file_key);
      } else {
        const [held] = (await manager.query(`SELECT 1 FROM knowledge_documents WHERE org_id = $1 AND knowledge_base_id = $2 LIMIT 1`, [
          orgId,
          baseId,
        ])) as unknown[];
        if (held) return 'not_empty';
      }
      await manager.query(`DELETE FROM knowledge_bases WHERE id = $1 AND org_id = $2`, [baseId, orgId]);
      return { deletedFileKeys };
    });
  }
}
