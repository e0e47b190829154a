import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsObject, IsString, Matches, Max, Min } from 'class-validator';
import { IF_BUSY, type IfBusy } from '@pylon/contracts';
import { IsOmittable } from '../../common/omittable';
import { IsUuid } from '../../common/uuid';
import { OrgPageQuery } from '../../common/pagination.dto';
import { CreateAgentRunRequest } from '../../agent-runs/dto/agent-run.dto';

export class CreateConversationRequest {
  @ApiProperty({ format: 'uuid' })
  @IsUuid()
  org_id!: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'Free-form JSON kept with the conversation, e.g. {"user_id": "u_42"}.',
  })
  @IsOmittable()
  @IsObject()
  metadata?: Record<string, unknown>;
}

export class ConversationView {
  @ApiProperty({ format: 'uuid' }) conversation_id!: string;
  @ApiProperty({ format: 'uuid' }) org_id!: string;
  @ApiProperty({ type: 'object', additionalProperties: true }) metadata!: Record<string, unknown>;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

export class ConversationList {
  @ApiProperty({ type: [ConversationView] }) data!: ConversationView[];
  @ApiProperty({ type: String, nullable: true }) next_cursor!: string | null;
}

export class ListConversationsQuery extends OrgPageQuery {}

/** A turn: the body of POST /api/v1/agent-runs, and what to do when an earlier turn is not finished. */
export class CreateConversationRunRequest extends CreateAgentRunRequest {
  @ApiPropertyOptional({
    enum: IF_BUSY,
    default: 'enqueue',
    description:
      'When an earlier turn is not finished: `enqueue` waits (queued) until the earlier turns end, turns running one at a time in the order they were accepted; `reject` is 409 conversation_busy; `interrupt` cancels the earlier unfinished turns (failed, "cancelled") and this one goes next.',
  })
  @IsOmittable()
  @IsIn(IF_BUSY)
  if_busy?: IfBusy;
}

export const ITEM_TYPES = ['input', 'answer', 'tool_call', 'tool_output', 'compaction'] as const;

export class ConversationItemView {
  @ApiProperty({ format: 'uuid' }) item_id!: string;
  @ApiProperty({
    enum: ITEM_TYPES,
    description:
      "`input`, `answer`: {text}; `tool_call`: {call_id, name, arguments}; `tool_output`: {call_id, output}; `compaction`: {text}, a summary of the earlier turns that no longer fit the model's context, which later turns see instead of them.",
  })
  type!: (typeof ITEM_TYPES)[number];
  @ApiProperty({ format: 'uuid', description: 'The turn (run) it belongs to.' }) run_id!: string;
  @ApiProperty({ type: String, nullable: true }) text!: string | null;
  @ApiProperty({ type: String, nullable: true }) call_id!: string | null;
  @ApiProperty({ type: String, nullable: true }) name!: string | null;
  @ApiProperty({ type: String, nullable: true, description: "The model's arguments as JSON text." }) arguments!: string | null;
  @ApiProperty({ type: String, nullable: true }) output!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

export class ConversationItemList {
  @ApiProperty({ type: [ConversationItemView] }) data!: ConversationItemView[];
  @ApiProperty({ type: String, nullable: true, description: 'Pass as `cursor` for the next page; null when there is none yet.' }) next_cursor!:
    string | null;
}

export const ITEM_CURSOR_PATTERN = '^[0-9]{1,9}_[0-9]{1,15}$';

export class ListConversationItemsQuery {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 100, default: 20 })
  @IsOmittable()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;

  @ApiPropertyOptional({
    pattern: ITEM_CURSOR_PATTERN,
    description: 'The `next_cursor` of the previous page: the position of its last item, `<turn>_<seq>`.',
  })
  @IsOmittable()
  @IsString()
  @Matches(new RegExp(ITEM_CURSOR_PATTERN), { message: 'cursor must be a next_cursor this list gave' })
  cursor?: string;
}
