import { Injectable } from '@nestjs/common';
import { type AgentScheduleActivities, type ScheduleFired, type ScheduleFiringInput } from '@pylon/contracts';
import { AgentSchedulesService } from '@pylon/agent-runs';

/** Thin adapters between the firing workflow and the agent-schedules service. */
@Injectable()
export class AgentScheduleActivitiesImpl implements AgentScheduleActivities {
  constructor(private readonly schedules: AgentSchedulesService) {}

  fireSchedule({ scheduledAt, ...firing }: ScheduleFiringInput & { scheduledAt: string }): Promise<ScheduleFired> {
    return this.schedules.fire(firing.orgId, firing, scheduledAt);
  }
}
