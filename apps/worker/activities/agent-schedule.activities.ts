import { Injectable } from '@nestjs/common';
import { ApplicationFailure } from '@temporalio/activity';
import {
  PylonError,
  ErrorCode,
  SCHEDULE_FIRING_REFUSED,
  type AgentScheduleActivities,
  type ScheduleFired,
  type ScheduleFiringInput,
} from '@pylon/contracts';
import { AgentSchedulesService } from '@pylon/agent-runs';

/**
 * Refusals a retry cannot change (the version is not the organisation's), and a priced model with an empty
 * balance (the firing fails, saying so in the Temporal UI; the next one tries again). A full backlog or an
 * engine outage is retried.
 */
const REFUSALS: ReadonlySet<ErrorCode> = new Set([
  ErrorCode.InvalidRequest,
  ErrorCode.NotFound,
  ErrorCode.IdempotencyKeyReused,
  ErrorCode.InsufficientTokens,
]);

/** Thin adapters between the firing workflow and the agent-schedules service. */
@Injectable()
export class AgentScheduleActivitiesImpl implements AgentScheduleActivities {
  constructor(private readonly schedules: AgentSchedulesService) {}

  async fireSchedule({ scheduledAt, ...firing }: ScheduleFiringInput & { scheduledAt: string }): Promise<ScheduleFired> {
    try {
      return await this.schedules.fire(firing.orgId, firing, scheduledAt);
    } catch (error) {
      if (error instanceof PylonError && REFUSALS.has(error.code))
        throw ApplicationFailure.nonRetryable(error.detail ?? error.code, SCHEDULE_FIRING_REFUSED);
      throw error;
    }
  }
}
