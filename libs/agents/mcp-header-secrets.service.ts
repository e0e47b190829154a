import { Injectable } from '@nestjs/common';
import { MCP_TOOL, mcpHeaderContext, type AgentToolConfig } from '@pylon/contracts';
import { AgentRepository } from './repositories/agent.repository';
import { SecretBox } from '@pylon/secrets';

export interface ResealOutcome {
  /** Versions whose headers were sealed again under SECRETS_KEY. */
  resealed: number;
  /** Versions with headers already under SECRETS_KEY. */
  current: number;
}

/**
 * Key rotation of MCP servers' headers: each sealed value under a previous key (SECRETS_PREVIOUS_KEYS) is
 * opened and sealed again under SECRETS_KEY, in memory, never written or logged in plain.
 */
@Injectable()
export class McpHeaderSecretsService {
  constructor(
    private readonly agents: AgentRepository,
    private readonly secrets: SecretBox,
  ) {}

  async reseal(orgId: string): Promise<ResealOutcome> {
    const outcome: ResealOutcome = { resealed: 0, current: 0 };
    for (const version of await this.agents.versionsWithMcpHeaders(orgId)) {
      if (!version.tools.some((tool) => tool.type === MCP_TOOL && Object.values(tool.headers ?? {}).some((sealed) => this.secrets.isStale(sealed)))) {
        outcome.current++;
        continue;
      }
      const tools = version.tools.map((tool): AgentToolConfig => {
        if (tool.type !== MCP_TOOL || !tool.headers) return tool;
        const headers = Object.fromEntries(
          Object.entries(tool.headers).map(([name, sealed]) => {
            if (!this.secrets.isStale(sealed)) return [name, sealed];
            const context = mcpHeaderContext(tool.server_label, name);
            return [name, this.secrets.seal(this.secrets.open(sealed, context), context)];
          }),
        );
        return { ...tool, headers };
      });
      if (await this.agents.resealVersionTools(orgId, version.id, version.tools, tools)) outcome.resealed++;
    }
    return outcome;
  }
}
