import { Injectable } from '@nestjs/common';
import { DEFAULT_TOOL_MATCH_COUNT } from '@pylon/contracts';
import { PylonConfig } from '@pylon/config';
import { Agent, AgentRepository, AgentVersion } from '@pylon/db';
import { LlmService } from '@pylon/llm';
import { ApiError } from '../common/api-error';
import type { CreateAgentVersionRequest } from './dto/agent.dto';

@Injectable()
export class AgentsService {
  constructor(
    private readonly agents: AgentRepository,
    private readonly llm: LlmService,
    private readonly config: PylonConfig,
  ) {}

  async getAgent(orgId: string, agentId: string): Promise<Agent> {
    const agent = await this.agents.findAgent(orgId, agentId);
    if (!agent) throw ApiError.notFound('no such agent');
    return agent;
  }

  async createVersion(orgId: string, agentId: string, request: CreateAgentVersionRequest): Promise<AgentVersion> {
    await this.getAgent(orgId, agentId);
    if (!this.llm.isSupported(request.model)) throw ApiError.invalidRequest(`model ${request.model} is not available`);
    const runTimeoutSeconds = request.run_timeout_seconds ?? this.config.defaultRunTimeoutSeconds;
    if (runTimeoutSeconds > this.config.maxRunTimeoutSeconds) {
      throw ApiError.invalidRequest(`run_timeout_seconds must be at most ${this.config.maxRunTimeoutSeconds}`);
    }
    return this.agents.createVersion(orgId, agentId, {
      model: request.model,
      instructions: request.instructions,
      temperature: request.temperature ?? null,
      maxOutputTokens: request.max_output_tokens ?? null,
      runTimeoutSeconds,
      tools: (request.tools ?? []).map((tool) => ({ type: tool.type, match_count: tool.match_count ?? DEFAULT_TOOL_MATCH_COUNT })),
    });
  }

  async getVersion(orgId: string, versionId: string): Promise<AgentVersion> {
    const version = await this.agents.findVersion(orgId, versionId);
    if (!version) throw ApiError.notFound('no such agent version');
    return version;
  }
}
