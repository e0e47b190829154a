import { Controller, Get } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RunMeteringService, type RunUsage } from '@pylon/agent-runs';
import { ApiUuidParam, UuidParam } from '../common/uuid-param';
import { RequireScope } from '../auth/access.decorators';
import { CurrentPrincipal, type Principal } from '../auth/principal';
import { ApiErrors } from '../openapi/api-errors.decorator';
import { AgentRunUsageView } from './dto/run-usage.dto';

/** What a run's model turns took and cost. */
@ApiTags('agent runs')
@ApiBearerAuth('apiKey')
@Controller('api/v1/agent-runs')
export class RunUsageController {
  constructor(private readonly metering: RunMeteringService) {}

  @Get(':runId/usage')
  @RequireScope('runs:read')
  @ApiOperation({
    operationId: 'getRunUsage',
    summary: "A run's tokens and cost, per model turn and in total",
    description:
      "Every model call of the run, with its input and output tokens and its cost in service tokens at the model's price (MODEL_PRICES, or the organisation's own prices); each turn was debited from the organisation's ledger when it was recorded, the ledger entry naming the run.",
  })
  @ApiUuidParam('runId')
  @ApiOkResponse({ type: AgentRunUsageView })
  @ApiErrors(400, 401, 403, 404)
  async usage(@CurrentPrincipal() principal: Principal, @UuidParam('runId') runId: string): Promise<AgentRunUsageView> {
    return toRunUsageView(runId, await this.metering.usageOf(principal.orgId, runId));
  }
}

function toRunUsageView(runId: string, usage: RunUsage): AgentRunUsageView {
  return {
    run_id: runId,
    turns: usage.turns.map((turn) => ({
      turn: turn.turn,
      model: turn.model,
      input_tokens: turn.inputTokens,
      output_tokens: turn.outputTokens,
      cached_input_tokens: turn.cachedInputTokens,
      reasoning_tokens: turn.reasoningTokens,
      key_source: turn.keySource,
      counted_by: turn.countedBy,
      cost_tokens: turn.cost,
      charged: turn.charged,
      created_at: turn.createdAt,
    })),
    total: { turns: usage.turns.length, input_tokens: usage.inputTokens, output_tokens: usage.outputTokens, cost_tokens: usage.chargedTokens },
  };
}
