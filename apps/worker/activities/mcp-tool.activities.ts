import { Injectable } from '@nestjs/common';
import { ApplicationFailure } from '@temporalio/activity';
import { RUN_NOT_FOUND_ERROR, type McpActivityInput, type McpServerTools, type McpToolActivities, type ToolCall } from '@pylon/contracts';
import { McpToolsService, RunNotFoundError } from '@pylon/agent-runs';
import { heartbeating } from './heartbeating';

function asActivityFailure(error: unknown): unknown {
  return error instanceof RunNotFoundError ? ApplicationFailure.nonRetryable(error.message, RUN_NOT_FOUND_ERROR) : error;
}

/** Thin adapters between the agent-run workflow and McpToolsService; both heartbeat, so a worker that dies mid-call is noticed. */
@Injectable()
export class McpToolActivitiesImpl implements McpToolActivities {
  constructor(private readonly mcp: McpToolsService) {}

  async listMcpTools({ orgId, runId, heartbeatTimeoutSeconds, mcpVersionId }: McpActivityInput): Promise<McpServerTools[]> {
    try {
      return await heartbeating((heartbeatTimeoutSeconds * 1000) / 3, (signal) => this.mcp.listTools(orgId, runId, signal, mcpVersionId));
    } catch (error) {
      throw asActivityFailure(error);
    }
  }

  async callMcpTool({
    orgId,
    runId,
    heartbeatTimeoutSeconds,
    call,
    mcpVersionId,
    conversation,
  }: McpActivityInput & { call: ToolCall }): Promise<string> {
    try {
      return await heartbeating((heartbeatTimeoutSeconds * 1000) / 3, (signal) =>
        this.mcp.callTool(orgId, runId, call, signal, { versionId: mcpVersionId, inConversation: conversation !== undefined }),
      );
    } catch (error) {
      throw asActivityFailure(error);
    }
  }
}
