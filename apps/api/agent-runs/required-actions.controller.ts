import { Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequiredActionsService, toAgentRunView } from '@pylon/agent-runs';
import { ApiUuidParam, UuidParam } from '../common/uuid-param';
import { RequireScope } from '../auth/access.decorators';
import { CurrentPrincipal, type Principal } from '../auth/principal';
import { ApiErrors } from '../openapi/api-errors.decorator';
import { AgentRunView } from './dto/agent-run.dto';
import { ApproveToolCallsRequest, RequiredActionView, SubmitToolOutputsRequest } from './dto/required-action.dto';
import { JsonBody } from '../common/json-body';

/** A run that waits: what it waits for, and the answers that let it go on. */
@ApiTags('agent runs')
@ApiBearerAuth('apiKey')
@Controller('api/v1/agent-runs')
export class RequiredActionsController {
  constructor(private readonly actions: RequiredActionsService) {}

  @Get(':runId/required-action')
  @RequireScope('runs:read')
  @ApiOperation({
    operationId: 'getRequiredAction',
    summary: 'What a waiting run needs: tool outputs or approvals',
    description: 'The run stays `running` while it waits. 404 when the run waits for nothing.',
  })
  @ApiUuidParam('runId')
  @ApiOkResponse({ type: RequiredActionView })
  @ApiErrors(400, 401, 403, 404)
  requiredAction(@CurrentPrincipal() principal: Principal, @UuidParam('runId') runId: string): Promise<RequiredActionView> {
    return this.actions.pending(principal.orgId, runId);
  }

  @Post(':runId/tool-outputs')
  @HttpCode(200)
  @RequireScope('runs:create')
  @ApiOperation({
    operationId: 'submitToolOutputs',
    summary: 'Answer every function call the run waits for; it goes on with the outputs',
    description:
      '400 names an unknown, missing or repeated tool_call_id; 409 run_not_waiting when the run waits for nothing (or for approvals). The same submission again answers the same.',
  })
  @ApiUuidParam('runId')
  @ApiOkResponse({ type: AgentRunView })
  @ApiErrors(400, 401, 403, 404, 409)
  async submitToolOutputs(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('runId') runId: string,
    @JsonBody() body: SubmitToolOutputsRequest,
  ): Promise<AgentRunView> {
    const outputs = body.tool_outputs.map(({ tool_call_id, output }) => ({ tool_call_id, output }));
    return toAgentRunView(await this.actions.answer(principal.orgId, runId, { type: 'submit_tool_outputs', tool_outputs: outputs }));
  }

  @Post(':runId/tool-approvals')
  @HttpCode(200)
  @RequireScope('runs:create')
  @ApiOperation({
    operationId: 'approveToolCalls',
    summary: 'Approve or deny every tool call the run waits for; approved calls run, denied ones are explained to the model',
    description:
      '400 names an unknown, missing or repeated tool_call_id; 409 run_not_waiting when the run waits for nothing (or for tool outputs). The same submission again answers the same.',
  })
  @ApiUuidParam('runId')
  @ApiOkResponse({ type: AgentRunView })
  @ApiErrors(400, 401, 403, 404, 409)
  async approveToolCalls(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('runId') runId: string,
    @JsonBody() body: ApproveToolCallsRequest,
  ): Promise<AgentRunView> {
    const approvals = body.approvals.map(({ tool_call_id, approve, reason }) => ({
      tool_call_id,
      approve,
      ...(reason !== undefined ? { reason } : {}),
    }));
    return toAgentRunView(await this.actions.answer(principal.orgId, runId, { type: 'approve_tool_calls', approvals }));
  }
}
