import { Injectable } from '@nestjs/common';
import { AgentsService } from '@pylon/agents';
import { PylonError } from '@pylon/contracts';
import { parseModelName } from './model-name';

/** What `/v1/models` lists: a model a response can name. */
export interface ModelObject {
  id: string;
  object: 'model';
  created: number;
  owned_by: string;
}

/** How many agents and how many versions `/v1/models` lists: the newest of each (OpenAI's list has no pages). */
const LISTED = 100;

/** The models of `/v1/models`: each agent as `agent:<agent_id>` (its latest version) and each agent version by its id. */
@Injectable()
export class ModelsService {
  constructor(private readonly agents: AgentsService) {}

  async list(orgId: string): Promise<ModelObject[]> {
    const [agents, versions] = await Promise.all([
      this.agents.listAgents(orgId, { limit: LISTED }),
      this.agents.listOrgVersions(orgId, { limit: LISTED }),
    ]);
    return [
      ...agents.items.map((agent) => model(`agent:${agent.id}`, agent.createdAt, orgId)),
      ...versions.items.map((version) => model(version.id, version.createdAt, orgId)),
    ];
  }

  async get(orgId: string, id: string): Promise<ModelObject> {
    const named = parseModelName(id);
    const notFound = () => Promise.reject(PylonError.notFound(`The model '${id}' does not exist`));
    if (!named) return notFound();
    if (named.kind === 'agent') {
      const agent = await this.agents.getAgent(orgId, named.agentId).catch(notFound);
      return model(`agent:${agent.id}`, agent.createdAt, orgId);
    }
    const version = await this.agents.getVersion(orgId, named.versionId).catch(notFound);
    return model(version.id, version.createdAt, orgId);
  }
}

function model(id: string, createdAt: Date, orgId: string): ModelObject {
  return { id, object: 'model', created: Math.floor(createdAt.getTime() / 1000), owned_by: orgId };
}
