import { proxyActivities } from '@temporalio/workflow';
import { MCP_CALL_TIMEOUT_MS, RUN_NOT_FOUND_ERROR, type AgentRunWorkflowInput, type McpToolActivities } from '@pylon/contracts';

/**
 * MCP servers behind the network: each listing and each call an activity that heartbeats, so a worker that
 * dies mid-call is noticed within the heartbeat timeout and the call retried on another worker (a tool may
 * thus run twice: at least once, like any activity). A call's own requests time out after
 * MCP_CALL_TIMEOUT_MS each (the handshake, then the call); what the server or tool does wrong is text for
 * the model, not a failure, so retries are for dead workers and the database only.
 */
export function mcpActivities(run: AgentRunWorkflowInput) {
  return proxyActivities<McpToolActivities>({
    startToCloseTimeout: 2 * MCP_CALL_TIMEOUT_MS + 30_000,
    heartbeatTimeout: run.heartbeatTimeoutSeconds * 1000,
    retry: {
      initialInterval: '1 second',
      backoffCoefficient: 2,
      maximumInterval: '30 seconds',
      maximumAttempts: 5,
      nonRetryableErrorTypes: [RUN_NOT_FOUND_ERROR],
    },
  });
}
