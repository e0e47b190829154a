import { Injectable } from '@nestjs/common';
import { type McpActivityInput, type McpServerTools, type McpToolActivities, type ToolCall } from '@pylon/contracts';
import { McpToolsService } from '@pylon/agent-runs';
import { heartbeating } from './heartbeating';

/** Thin adapters between the agent-run workflow and McpToolsService; both heartbeat, so a worker that dies mid-call is noticed. */
@Injectable()
export class McpToolActivitiesImpl implements McpToolActivities {
  constructor(private readonly mcp: McpToolsService) {}

  listMcpTools({ orgId, runId, heartbeatTimeoutSeconds, mcpVersionId }: McpActivityInput): Promise<McpServerTools[]> {
    return heartbeating((heartbeatTimeoutSeconds * 1000) / 3, (signal) => this.mcp.listTools(orgId, runId, signal, mcpVersionId));
  }

  callMcpTool({ orgId, runId, heartbeatTimeoutSeconds, call, mcpVersionId, conversation }: McpActivityInput & { call: ToolCall }): Promise<string> {
    return heartbeating((heartbeatTimeoutSeconds * 1000) / 3, (signal) =>
      this.mcp.callTool(orgId, runId, call, signal, { versionId: mcpVersionId, inConversation: conversation !== undefined }),
    );
  }
}
