import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource, QueryFailedError } from 'typeorm';
import { Agent, AgentVersion, Page, PageRequest, paginate } from '@pylon/db';

export type NewAgentVersion = Pick<
  AgentVersion,
  | 'model'
  | 'fallbackModels'
  | 'compactionModel'
  | 'instructions'
  | 'temperature'
  | 'maxOutputTokens'
  | 'runTimeoutSeconds'
  | 'actionTimeoutSeconds'
  | 'tools'
  | 'responseFormat'
>;

const UNIQUE_VIOLATION = '23505';

/** A create's Idempotency-Key (null when the request sent none) and the fingerprint of its request. */
export interface CreateIdempotency {
  idempotencyKey: string | null;
  requestHash: string;
}

@Injectable()
export class AgentRepository {
  constructor(private readonly db: DataSource) {}

  /** Inserts an agent; null, with nothing written, when the organisation already used this Idempotency-Key. */
  async createAgent(orgId: string, name: string, idempotency: CreateIdempotency): Promise<Agent | null> {
    const id = randomUUID();
    const rows = (await this.db.query(
      `INSERT INTO agents (id, org_id, name, created_at, idempotency_key, request_hash)
       VALUES ($1, $2, $3, now(), $4, $5)
       ON CONFLICT (org_id, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING
       RETURNING id`,
      [id, orgId, name, idempotency.idempotencyKey, idempotency.requestHash],
    )) as Array<{ id: string }>;
    return rows.length ? this.findAgent(orgId, id) : null;
  }

  findAgentByIdempotencyKey(orgId: string, idempotencyKey: string): Promise<Agent | null> {
    return this.db.getRepository(Agent).findOneBy({ orgId, idempotencyKey });
  }

  findAgent(orgId: string, agentId: string): Promise<Agent | null> {
    return this.db.getRepository(Agent).findOneBy({ id: agentId, orgId });
  }

  listAgents(orgId: string, page: PageRequest): Promise<Page<Agent>> {
    return paginate(this.db.getRepository(Agent).createQueryBuilder('agent').where('agent.org_id = :orgId', { orgId }), page);
  }

  /**
   * Numbers versions 1, 2, 3… per agent; a concurrent create that takes the same number tries again. Null,
   * with nothing written, when the organisation already used this Idempotency-Key.
   */
  async createVersion(orgId: string, agentId: string, fields: NewAgentVersion, idempotency: CreateIdempotency): Promise<AgentVersion | null> {
    for (let attempt = 0; ; attempt++) {
      try {
        const [row] = (await this.db.query(
          `INSERT INTO agent_versions
             (id, agent_id, org_id, version, model, instructions, temperature, max_output_tokens, run_timeout_seconds, created_at, tools,
              idempotency_key, request_hash, action_timeout_seconds, response_format, fallback_models, compaction_model)
           SELECT $1, $2, $3, COALESCE(MAX(version), 0) + 1, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16
             FROM agent_versions WHERE agent_id = $2
           ON CONFLICT (org_id, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING
           RETURNING id`,
          [
            randomUUID(),
            agentId,
            orgId,
            fields.model,
            fields.instructions,
            fields.temperature,
            fields.maxOutputTokens,
            fields.runTimeoutSeconds,
            new Date(),
            JSON.stringify(fields.tools),
            idempotency.idempotencyKey,
            idempotency.requestHash,
            fields.actionTimeoutSeconds,
            fields.responseFormat ? JSON.stringify(fields.responseFormat) : null,
            JSON.stringify(fields.fallbackModels),
            fields.compactionModel,
          ],
        )) as Array<{ id: string }>;
        return row ? this.findVersion(orgId, row.id) : null;
      } catch (error) {
        const code = error instanceof QueryFailedError ? (error.driverError as { code?: string }).code : undefined;
        if (code !== UNIQUE_VIOLATION || attempt >= 5) throw error;
      }
    }
  }

  findVersionByIdempotencyKey(orgId: string, idempotencyKey: string): Promise<AgentVersion | null> {
    return this.db.getRepository(AgentVersion).findOneBy({ orgId, idempotencyKey });
  }

  findVersion(orgId: string, versionId: string): Promise<AgentVersion | null> {
    return this.db.getRepository(AgentVersion).findOneBy({ id: versionId, orgId });
  }

  listVersions(orgId: string, agentId: string, page: PageRequest): Promise<Page<AgentVersion>> {
    return paginate(
      this.db
        .getRepository(AgentVersion)
        .createQueryBuilder('version')
        .where('version.org_id = :orgId AND version.agent_id = :agentId', { orgId, agentId }),
      page,
    );
  }

  /** Every version of the organisation, newest first. */
  listOrgVersions(orgId: string, page: PageRequest): Promise<Page<AgentVersion>> {
    return paginate(this.db.getRepository(AgentVersion).createQueryBuilder('version').where('version.org_id = :orgId', { orgId }), page);
  }

  /** The organisation's versions with an MCP tool that has headers (to seal them again under a new key): ids and tools. */
  async versionsWithMcpHeaders(orgId: string): Promise<Array<Pick<AgentVersion, 'id' | 'tools'>>> {
    return (await this.db.query(
      `SELECT id, tools FROM agent_versions
        WHERE org_id = $1 AND EXISTS (SELECT 1 FROM jsonb_array_elements(tools) AS tool WHERE tool->>'type' = 'mcp' AND tool ? 'headers')
        ORDER BY created_at, id`,
      [orgId],
    )) as Array<Pick<AgentVersion, 'id' | 'tools'>>;
  }

  /**
   * Replaces a version's tools with the same tools whose sealed headers were sealed again (key rotation):
   * only when they are still `before`, so two concurrent reseals cannot undo each other. Whether it changed.
   */
  async resealVersionTools(orgId: string, versionId: string, before: AgentVersion['tools'], after: AgentVersion['tools']): Promise<boolean> {
    const [, count] = (await this.db.query(`UPDATE agent_versions SET tools = $4::jsonb WHERE org_id = $1 AND id = $2 AND tools = $3::jsonb`, [
      orgId,
      versionId,
      JSON.stringify(before),
      JSON.stringify(after),
    ])) as [unknown, number];
    return count > 0;
  }
}
