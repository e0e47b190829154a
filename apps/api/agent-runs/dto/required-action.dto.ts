import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsString, Length, MaxLength, ValidateNested } from 'class-validator';
import { MAX_TOOL_OUTPUT_CHARS, REQUIRED_ACTION_TYPES, type RequiredActionType } from '@pylon/contracts';
import { IsOmittable } from '../../common/omittable';

/** A run waits for at most this many calls at once (a model turn's calls); answers carry as many. */
const MAX_CALLS = 128;

export class ToolCallView {
  @ApiProperty({ description: "The call's id: answer it with this tool_call_id." }) id!: string;
  @ApiProperty({ example: 'lookup_order' }) name!: string;
  @ApiProperty({ description: "The model's arguments as JSON text.", example: '{"order_id":"42"}' }) arguments!: string;
}

export class RequiredActionView {
  @ApiProperty({
    enum: REQUIRED_ACTION_TYPES,
    description:
      "`submit_tool_outputs`: run these function calls and POST their outputs to /tool-outputs. `approve_tool_calls`: approve or deny these calls of Pylon's own tools at /tool-approvals.",
  })
  type!: RequiredActionType;
  @ApiProperty({ type: [ToolCallView] }) tool_calls!: ToolCallView[];
  @ApiProperty({ format: 'date-time', description: 'After this the run ends failed with "required action expired".' }) expires_at!: string;
}

export class ToolOutputRequest {
  @ApiProperty({ minLength: 1, maxLength: 200 })
  @IsString()
  @Length(1, 200)
  tool_call_id!: string;

  @ApiProperty({ maxLength: MAX_TOOL_OUTPUT_CHARS, description: 'What the tool returned, as text for the model (JSON text is fine).' })
  @IsString()
  @MaxLength(MAX_TOOL_OUTPUT_CHARS)
  output!: string;
}

export class SubmitToolOutputsRequest {
  @ApiProperty({ type: [ToolOutputRequest], minItems: 1, maxItems: MAX_CALLS, description: 'One output for every call of the pending action.' })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_CALLS)
  @ValidateNested({ each: true })
  @Type(() => ToolOutputRequest)
  tool_outputs!: ToolOutputRequest[];
}

export class ToolApprovalRequest {
  @ApiProperty({ minLength: 1, maxLength: 200 })
  @IsString()
  @Length(1, 200)
  tool_call_id!: string;

  @ApiProperty({ description: 'true: the call runs; false: it does not, and the model is told it was refused (and why).' })
  @IsBoolean()
  approve!: boolean;

  @ApiPropertyOptional({ maxLength: 1_000, description: 'Told to the model with a refusal.' })
  @IsOmittable()
  @IsString()
  @MaxLength(1_000)
  reason?: string;
}

export class ApproveToolCallsRequest {
  @ApiProperty({ type: [ToolApprovalRequest], minItems: 1, maxItems: MAX_CALLS, description: 'A decision for every call of the pending action.' })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_CALLS)
  @ValidateNested({ each: true })
  @Type(() => ToolApprovalRequest)
  approvals!: ToolApprovalRequest[];
}
