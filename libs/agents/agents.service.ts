import { Injectable } from '@nestjs/common';
import { PylonError, DEFAULT_ACTION_TIMEOUT_SECONDS } from '@pylon/contracts';
import { PylonConfig } from '@pylon/config';
import { Agent, AgentVersion, type Page, type PageRequest } from '@pylon/db';
import { AgentRepository } from './repositories/agent.repository';
import { createOnce, fingerprint } from '@pylon/idempotency';
import { KnowledgeBasesService } from '@pylon/knowledge';
import { LlmService, type ModelProviderInfo } from '@pylon/llm';
import { ModelCredentialsService, type ProviderAccess } from '@pylon/model-credentials';
import { SecretBox } from '@pylon/secrets';
import { PrivateTargets } from '@pylon/webhooks';
import { fingerprintableTools, sealHeaders } from './mcp-tool';
import { namedKnowledgeBases, versionTools, type AgentToolRequest } from './version-tools';
import { versionResponseFormat, type ResponseFormatRequest } from './response-format';
/** What a new agent version is asked for (its model must be one this deployment serves). */
export interface AgentVersionRequest {
  model: string;
  fallback_models?: string[] | null;
  compaction_model?: string | null;
  instructions: string;
  temperature?: number;
  max_output_tokens?: number;
  run_timeout_seconds?: number;
  action_timeout_seconds?: number;
  tools?: AgentToolRequest[] | null;
  response_format?: ResponseFormatRequest | null;
}

/** Agents and their immutable versions, for the API (runs read versions through AgentRunsService). */
@Injectable()
export class AgentsService {
  /** The private MCP servers the operator allows (WEBHOOK_ALLOWED_PRIVATE_TARGETS, as for webhook receivers), read once. */
  private readonly privateTargets: PrivateTargets;

  constructor(
    private readonly agents: AgentRepository,
    private readonly llm: LlmService,
    private readonly config: PylonConfig,
    private readonly secrets: SecretBox,
    private readonly knowledgeBases: KnowledgeBasesService,
    private readonly credentials: ModelCredentialsService,
  ) {
    this.privateTargets = PrivateTargets.parse(config.webhookAllowedPrivateTargets);
  }

  /** The model providers a version can name, whether this server can run each, and on whose key the organisation would. */
  async modelProviders(orgId: string): Promise<Array<ModelProviderInfo & ProviderAccess>> {
    const access = await this.credentials.access(orgId);
    return this.llm.modelProviders().map((provider) => ({ ...provider, ...access.get(provider.provider)! }));
  }

  /** An Idempotency-Key makes it safe to retry: the same key and name answer the agent it made. */
  createAgent(orgId: string, name: string, idempotencyKey: string | null): Promise<Agent> {
    const requestHash = fingerprint({ name });
    return createOnce<Agent>(idempotencyKey, requestHash, {
      findByKey: (key) => this.agents.findAgentByIdempotencyKey(orgId, key),
      admit: async () => {},
      insert: () => this.agents.createAgent(orgId, name, { idempotencyKey, requestHash }),
    });
  }

  listAgents(orgId: string, page: PageRequest): Promise<Page<Agent>> {
    return this.agents.listAgents(orgId, page);
  }

  async getAgent(orgId: string, agentId: string): Promise<Agent> {
    const agent = await this.agents.findAgent(orgId, agentId);
    if (!agent) throw PylonError.notFound('no such agent');
    return agent;
  }

  /** An Idempotency-Key makes it safe to retry: the same key and request answer the version it made. */
  async createVersion(orgId: string, agentId: string, request: AgentVersionRequest, idempotencyKey: string | null): Promise<AgentVersion> {
    const runTimeoutSeconds = request.run_timeout_seconds ?? this.config.defaultRunTimeoutSeconds;
    const fallbackModels = request.fallback_models ?? [];
    const fields = {
      model: request.model,
      fallbackModels,
      compactionModel: request.compaction_model ?? null,
      instructions: request.instructions,
      temperature: request.temperature ?? null,
      maxOutputTokens: request.max_output_tokens ?? null,
      runTimeoutSeconds,
      actionTimeoutSeconds: request.action_timeout_seconds ?? DEFAULT_ACTION_TIMEOUT_SECONDS,
      tools: versionTools(request.tools ?? [], this.privateTargets),
      responseFormat: versionResponseFormat(request.response_format, (schema) => this.llm.responseSchemaFault(request.model, schema)),
    };
    const requestHash = fingerprint({ agentId, version: JSON.stringify({ ...fields, tools: fingerprintableTools(fields.tools, this.secrets) }) });
    fields.tools = sealHeaders(fields.tools, this.secrets);
    return createOnce<AgentVersion>(idempotencyKey, requestHash, {
      findByKey: (key) => this.agents.findVersionByIdempotencyKey(orgId, key),
      admit: async () => {
        await this.getAgent(orgId, agentId);
        const refusal = await this.credentials.refusal(orgId, request.model);
        if (refusal) throw PylonError.invalidRequest(refusal);
        if (fields.compactionModel) {
          const fault = await this.credentials.refusal(orgId, fields.compactionModel);
          if (fault) throw PylonError.invalidRequest(`compaction_model: ${fault}`);
        }
        for (const [index, fallback] of fallbackModels.entries()) {
          if (fallback === request.model || fallbackModels.indexOf(fallback) !== index)
            throw PylonError.invalidRequest(`fallback_models.${index}: ${fallback} is named twice`);
          const fault = await this.credentials.refusal(orgId, fallback);
          if (fault) throw PylonError.invalidRequest(`fallback_models.${index}: ${fault}`);
          if (fields.responseFormat) {
            const schemaFault = this.llm.responseSchemaFault(fallback, fields.responseFormat.schema);
            if (schemaFault) throw PylonError.invalidRequest(`fallback_models.${index}: ${schemaFault}`);
          }
        }
        if (runTimeoutSeconds > this.config.maxRunTimeoutSeconds) {
          throw PylonError.invalidRequest(`run_timeout_seconds must be at most ${this.config.maxRunTimeoutSeconds}`);
        }
        for (const { field, ids } of namedKnowledgeBases(fields.tools)) await this.knowledgeBases.assertExist(orgId, ids, field);
      },
      insert: () => this.agents.createVersion(orgId, agentId, fields, { idempotencyKey, requestHash }),
    });
  }

  /** An agent's versions, newest first; 404 for an agent that is not the organisation's. */
  async listVersions(orgId: string, agentId: string, page: PageRequest): Promise<Page<AgentVersion>> {
    await this.getAgent(orgId, agentId);
    return this.agents.listVersions(orgId, agentId, page);
  }

  /** Every version of every agent of the organisation, newest first. */
  listOrgVersions(orgId: string, page: PageRequest): Promise<Page<AgentVersion>> {
    return this.agents.listOrgVersions(orgId, page);
  }

  async getVersion(orgId: string, versionId: string): Promise<AgentVersion> {
    const version = await this.agents.findVersion(orgId, versionId);
    if (!version) throw PylonError.notFound('no such agent version');
    return version;
  }
}
