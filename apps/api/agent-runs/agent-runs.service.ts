import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { ErrorCode, RUN_CANCELLED_ERROR } from '@pylon/contracts';
import { AgentRepository, AgentRun, AgentRunRepository } from '@pylon/db';
import { ApiError } from '../common/api-error';
import type { Principal } from '../auth/principal';
import type { CreateAgentRunRequest } from './dto/agent-run.dto';
import { assertSameRequest, fingerprint } from '../common/idempotency';
import { RunWorkflows } from './run-workflows';
import { runEvent } from '@pylon/agent-runs';
import { EventAnnouncer } from '@pylon/temporal';

/**
 * Creating a run writes the queued projection first and then starts workflow `agent-run:<run_id>`;
 * the answer goes out only once both happened, so an acknowledged run is never lost.
 */
@Injectable()
export class AgentRunsService {
  private readonly logger = new Logger(AgentRunsService.name);

  constructor(
    private readonly runs: AgentRunRepository,
    private readonly agents: AgentRepository,
    private readonly workflows: RunWorkflows,
    private readonly events: EventAnnouncer,
  ) {}

  async create(principal: Principal, request: CreateAgentRunRequest, idempotencyKey: string | null): Promise<Pick<AgentRun, 'id' | 'status' | 'createdAt'>> {
    const orgId = principal.orgId;
    const requestHash = fingerprint({ ...request });
    if (idempotencyKey) {
      const earlier = await this.runs.findByIdempotencyKey(orgId, idempotencyKey);
      if (earlier) return this.replay(earlier, requestHash);
    }
    const version = await this.agents.findVersion(orgId, request.agent_version_id);
    if (!version) throw ApiError.invalidRequest('agent_version_id is not an agent version of this organisation');

    const runId = randomUUID();
    const createdAt = new Date();
    const inserted = await this.runs.insertQueued({
      id: runId,
      orgId,
      agentVersionId: request.agent_version_id,
      input: request.input,
      idempotencyKey,
      requestHash,
      createdAt,
    });
    if (!inserted && idempotencyKey) {
      const winner = await this.runs.findByIdempotencyKey(orgId, idempotencyKey);
      if (winner) return this.replay(winner, requestHash);
    }
    if (!inserted) throw new Error(`run ${runId} could not be inserted`);

    try {
      await this.workflows.start({ runId, orgId, runTimeoutSeconds: version.runTimeoutSeconds });
    } catch (error) {
      this.logger.error({ err: error }, `could not start the workflow of run ${runId}; removing the run`);
      await this.runs.deleteQueued(orgId, runId);
      throw new ApiError(ErrorCode.OrchestratorUnavailable, 'the workflow engine is unavailable; nothing was created');
    }
    return { id: runId, status: 'queued', createdAt };
  }

  async get(principal: Principal, runId: string): Promise<AgentRun> {
    const run = await this.runs.findById(principal.orgId, runId);
    if (!run) throw ApiError.notFound('no such run');
    return run;
  }

  async cancel(principal: Principal, runId: string): Promise<AgentRun> {
    const run = await this.get(principal, runId);
    if (run.status === 'succeeded' || run.status === 'failed') {
      throw new ApiError(ErrorCode.RunNotCancellable, `the run already ${run.status}`);
    }
    const hadWorkflow = await this.workflows.cancel(runId);
    if (!hadWorkflow) await this.events.announce(principal.orgId, await this.runs.markFailed(principal.orgId, runId, RUN_CANCELLED_ERROR, runEvent));
    return (await this.runs.findById(principal.orgId, runId))!;
  }

  /** A retry under the same Idempotency-Key: the same run if the body is the same, 409 otherwise. */
  private async replay(earlier: AgentRun, requestHash: string): Promise<AgentRun> {
    assertSameRequest(earlier, requestHash);
    if (earlier.status === 'queued') {
      const version = await this.agents.findVersion(earlier.orgId, earlier.agentVersionId);
      if (version) await this.workflows.start({ runId: earlier.id, orgId: earlier.orgId, runTimeoutSeconds: version.runTimeoutSeconds });
    }
    return earlier;
  }
}
