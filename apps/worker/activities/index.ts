import type { INestApplicationContext } from '@nestjs/common';
import type { AgentRunActivities } from '@pylon/contracts';
import { AgentRunActivitiesImpl } from './agent-run.activities';

/** Activity functions bound to their Nest-managed instances, keyed by the names workflows call. */
export function buildActivities(app: INestApplicationContext): AgentRunActivities {
  const agentRuns = app.get(AgentRunActivitiesImpl);
  return {
    markRunRunning: agentRuns.markRunRunning.bind(agentRuns),
    generateRunOutput: agentRuns.generateRunOutput.bind(agentRuns),
    markRunSucceeded: agentRuns.markRunSucceeded.bind(agentRuns),
    markRunFailed: agentRuns.markRunFailed.bind(agentRuns),
  };
}
