/**
 * The mcp-tools baseline's workflow: the same MCP work as a Pylon run that calls one tool (list the
 * server's tools, then call one), each an activity that connects with the SDK, and nothing else.
 * Bundled by its own bare Worker (workflowsPath points at this file).
 */
import { proxyActivities } from '@temporalio/workflow';

export interface BaselineMcpActivities {
  listTools(): Promise<string[]>;
  callTool(orderId: string): Promise<string>;
}

const { listTools, callTool } = proxyActivities<BaselineMcpActivities>({ startToCloseTimeout: '30 seconds', heartbeatTimeout: '5 seconds' });

export async function baselineMcpWorkflow(orderId: string): Promise<string> {
  const tools = await listTools();
  if (!tools.includes('lookup_order')) throw new Error('lookup_order is not listed');
  return callTool(orderId);
}
