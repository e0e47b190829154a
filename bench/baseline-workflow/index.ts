/** The end-to-end baseline's workflow: one trivial activity, nothing else. Bundled by the bare Worker. */
import { proxyActivities } from '@temporalio/workflow';

export interface BaselineActivities {
  shout(input: string): Promise<string>;
}

const { shout } = proxyActivities<BaselineActivities>({ startToCloseTimeout: '15 seconds' });

export async function baselineWorkflow(input: string): Promise<string> {
  return shout(input);
}
