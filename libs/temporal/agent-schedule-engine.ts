import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  Client,
  ScheduleAlreadyRunning,
  ScheduleNotFoundError,
  ScheduleOverlapPolicy,
  type ScheduleOptions,
  type ScheduleOptionsStartWorkflowAction,
  type ScheduleSpec,
} from '@temporalio/client';
import {
  WORKFLOW_KINDS,
  WORKFLOW_TYPES,
  agentScheduleFiringWorkflowId,
  agentScheduleTemporalId,
  pylonSearchAttributes,
  type ScheduleFiringInput,
  type ScheduleOverlap,
} from '@pylon/contracts';
import { PylonConfig } from '@pylon/config';

/** Everything the Temporal Schedule of an agent schedule is made of (the row it mirrors). */
export interface AgentScheduleDefinition {
  id: string;
  orgId: string;
  agentVersionId: string;
  input: string;
  cron: string | null;
  everySeconds: number | null;
  timezone: string;
  overlap: ScheduleOverlap;
  paused: boolean;
}

/** Temporal refused the schedule's spec (the server's reason as the message). */
export class InvalidScheduleSpecError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'InvalidScheduleSpecError';
  }
}

/** The client turns the server's INVALID_ARGUMENT "Invalid schedule spec" into a TypeError carrying the reason. */
async function refusingBadSpec(call: () => Promise<void>): Promise<void> {
  try {
    await call();
  } catch (error) {
    if (error instanceof TypeError) throw new InvalidScheduleSpecError(error.message);
    throw error;
  }
}

const OVERLAP_POLICIES: Record<ScheduleOverlap, ScheduleOverlapPolicy> = {
  skip: ScheduleOverlapPolicy.SKIP,
  buffer_one: ScheduleOverlapPolicy.BUFFER_ONE,
  allow_all: ScheduleOverlapPolicy.ALLOW_ALL,
};

/**
 * Firings missed while Temporal was down are taken when it is back, up to this late (each by the
 * overlap policy), so an outage loses none of them; a longer outage skips the older ones.
 */
const CATCHUP_WINDOW = '1 day';

/**
 * The Temporal Schedules of agent schedules, `agent-schedule:<id>`: each starts a firing workflow on the
 * agent-runs task queue, with the firing's arguments fixed in its action.
 */
@Injectable()
export class AgentScheduleEngine {
  constructor(
    @Inject(Client) private readonly temporal: Client,
    private readonly config: PylonConfig,
  ) {}

  /** Creating one that exists is success (a retried create). */
  async create(schedule: AgentScheduleDefinition): Promise<void> {
    const options = { scheduleId: agentScheduleTemporalId(schedule.id), ...this.options(schedule) };
    try {
      await refusingBadSpec(async () => void (await this.temporal.schedule.create(options)));
    } catch (error) {
      if (!(error instanceof ScheduleAlreadyRunning)) throw error;
    }
  }

  /** Replaces the whole definition (spec, action, overlap, paused) with the row's. */
  async update(schedule: AgentScheduleDefinition): Promise<void> {
    const options = this.options(schedule);
    await refusingBadSpec(() =>
      this.handle(schedule.id).update(() => ({
        spec: options.spec,
        action: options.action,
        policies: options.policies,
        state: { paused: schedule.paused },
      })),
    );
  }

  /**
   * One firing now, whatever runs already: a firing workflow of its own (Temporal's trigger names a firing
   * by the second, so two triggers in one second would share one), with its own run.
   */
  async fireNow(schedule: Pick<AgentScheduleDefinition, 'id' | 'orgId' | 'agentVersionId' | 'input'>): Promise<void> {
    const trigger = { id: randomUUID(), at: new Date().toISOString() };
    await this.temporal.workflow.start(WORKFLOW_TYPES.agentScheduleFiring, {
      workflowId: `${agentScheduleFiringWorkflowId(schedule.id)}-trigger-${trigger.id}`,
      taskQueue: this.config.taskQueue(WORKFLOW_KINDS[WORKFLOW_TYPES.agentScheduleFiring]),
      args: [{ ...firingInput(schedule), trigger } satisfies ScheduleFiringInput],
      typedSearchAttributes: pylonSearchAttributes(schedule.orgId, schedule.id),
      staticSummary: `Firing of agent schedule ${schedule.id} (triggered)`,
    });
  }

  /** Deleting one that does not exist is success (a retried delete). */
  async delete(scheduleId: string): Promise<void> {
    try {
      await this.handle(scheduleId).delete();
    } catch (error) {
      if (!(error instanceof ScheduleNotFoundError)) throw error;
    }
  }

  /** The next firing times Temporal has computed (none while paused), or null when the Schedule does not exist. */
  async nextTimes(scheduleId: string): Promise<Date[] | null> {
    try {
      const description = await this.handle(scheduleId).describe();
      return description.state.paused ? [] : description.info.nextActionTimes;
    } catch (error) {
      if (error instanceof ScheduleNotFoundError) return null;
      throw error;
    }
  }

  private handle(scheduleId: string) {
    return this.temporal.schedule.getHandle(agentScheduleTemporalId(scheduleId));
  }

  private options(schedule: AgentScheduleDefinition): Omit<ScheduleOptions<ScheduleOptionsStartWorkflowAction<never>>, 'scheduleId'> {
    const firing = firingInput(schedule);
    const spec: ScheduleSpec = schedule.cron
      ? { cronExpressions: [schedule.cron], timezone: schedule.timezone }
      : { intervals: [{ every: schedule.everySeconds! * 1000 }], timezone: schedule.timezone };
    return {
      spec,
      action: {
        type: 'startWorkflow',
        workflowType: WORKFLOW_TYPES.agentScheduleFiring,
        workflowId: agentScheduleFiringWorkflowId(schedule.id),
        taskQueue: this.config.taskQueue(WORKFLOW_KINDS[WORKFLOW_TYPES.agentScheduleFiring]),
        args: [firing] as never,
        typedSearchAttributes: pylonSearchAttributes(schedule.orgId, schedule.id),
        staticSummary: `Firing of agent schedule ${schedule.id}`,
      },
      policies: { overlap: OVERLAP_POLICIES[schedule.overlap], catchupWindow: CATCHUP_WINDOW },
      state: { paused: schedule.paused },
      typedSearchAttributes: pylonSearchAttributes(schedule.orgId, schedule.id),
    };
  }
}

function firingInput(schedule: Pick<AgentScheduleDefinition, 'id' | 'orgId' | 'agentVersionId' | 'input'>): ScheduleFiringInput {
  return { scheduleId: schedule.id, orgId: schedule.orgId, agentVersionId: schedule.agentVersionId, input: schedule.input };
}
