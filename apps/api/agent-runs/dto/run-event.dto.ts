import { IsOmittable } from '../../common/omittable';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';

export const RUN_EVENT_TYPES = [
  'queued',
  'running',
  'history',
  'mcp_list_tools',
  'output_delta',
  'tool_call',
  'requires_action',
  'tool_approval',
  'tool_result',
  'output_repair',
  'model_fallback',
  'succeeded',
  'failed',
] as const;
const MAX_SEQ = 2_147_483_647;

export class RunEventsQuery {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: MAX_SEQ,
    default: 0,
    description: 'Only events after this sequence number (a stream takes the `Last-Event-ID` header instead, when sent).',
  })
  @IsOmittable()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(MAX_SEQ)
  after?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 1_000, default: 100, description: 'JSON pages only.' })
  @IsOmittable()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1_000)
  limit?: number;
}

export class RunEventView {
  @ApiProperty({ type: 'integer', description: "The event's place in the run's log, from 1; the SSE `id`." }) seq!: number;
  @ApiProperty({
    enum: RUN_EVENT_TYPES,
    description:
      "`queued`, `running`: status changes ({status}); `history`: a conversation turn's earlier items the model saw ({items, omitted: left out for its context, compacted: folded into a summary, tokens_counted_by: provider or estimate}); " +
      '`output_delta`: a piece of the output ({text}); `tool_call` ({call_id, name, arguments}); ' +
      '`requires_action`: the run waits, as GET /required-action returns it ({type, tool_calls, expires_at}); `tool_approval` ({call_id, name, approved, reason}); ' +
      "`tool_result` ({call_id, name, query, doc_ids}, {call_id, name, output} for a function tool, or {call_id, name, error}); `output_repair`: the answer did not match the version's JSON Schema and the model is asked once more ({fault}); `succeeded`, `failed`: the terminal event, the run as GET returns it (`succeeded` with `output_parsed` too for a version with a response_format).",
  })
  type!: string;
  @ApiProperty({ type: 'object', additionalProperties: true }) data!: Record<string, unknown>;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

export class RunEventPage {
  @ApiProperty({ type: [RunEventView] }) data!: RunEventView[];
  @ApiProperty({ type: String, nullable: true, description: 'Pass as `after` for the next page; null when there is none yet.' })
  next_cursor!: string | null;
}
