import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource, QueryFailedError } from 'typeorm';
import { Agent, AgentVersion } from '../entities';
import { Page, PageRequest, paginate } from '../pagination';

export type NewAgentVersion = Pick<AgentVersion, 'model' | 'instructions' | 'temperature' | 'maxOutputTokens' | 'runTimeoutSeconds' | 'tools'>;

const UNIQUE_VIOLATION = '23505';

@Injectable()
export class AgentRepository {
  constructor(private readonly db: DataSource) {}

  createAgent(orgId: string, name: string): Promise<Agent> {
    const agents = this.db.getRepository(Agent);
    return agents.save(agents.create({ id: randomUUID(), orgId, name, createdAt: new Date() }));
  }

  findAgent(orgId: string, agentId: string): Promise<Agent | null> {
    return this.db.getRepository(Agent).findOneBy({ id: agentId, orgId });
  }

  listAgents(orgId: string, page: PageRequest): Promise<Page<Agent>> {
    return paginate(this.db.getRepository(Agent).createQueryBuilder('agent').where('agent.org_id = :orgId', { orgId }), page);
  }

  /** Numbers versions 1, 2, 3… per agent; a concurrent create that takes the same number tries again. */
  async createVersion(orgId: string, agentId: string, fields: NewAgentVersion): Promise<AgentVersion> {
    for (let attempt = 0; ; attempt++) {
      try {
        const [row] = (await this.db.query(
          `INSERT INTO agent_versions
             (id, agent_id, org_id, version, model, instructions, temperature, max_output_tokens, run_timeout_seconds, created_at, tools)
           SELECT $1, $2, $3, COALESCE(MAX(version), 0) + 1, $4, $5, $6, $7, $8, $9, $10
             FROM agent_versions WHERE agent_id = $2
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
          ],
        )) as Array<{ id: string }>;
        return (await this.findVersion(orgId, row!.id))!;
      } catch (error) {
        const code = error instanceof QueryFailedError ? (error.driverError as { code?: string }).code : undefined;
        if (code !== UNIQUE_VIOLATION || attempt >= 5) throw error;
      }
    }
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
}
