import { IsUuid } from '../../common/uuid';
import { IsOmittable } from '../../common/omittable';
import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import {
  APPROVAL_POLICIES,
  MAX_SCOPED_KNOWLEDGE_BASES,
  DEFAULT_ACTION_TIMEOUT_SECONDS,
  DEFAULT_TOOL_MATCH_COUNT,
  FUNCTION_TOOL,
  FUNCTION_TOOL_NAME_PATTERN,
  KNOWLEDGE_SEARCH_TOOL,
  MAX_ACTION_TIMEOUT_SECONDS,
  MAX_AGENT_TOOLS,
  MASKED_HEADER_VALUE,
  MAX_MCP_ALLOWED_TOOLS,
  MAX_MCP_HEADERS,
  MAX_MCP_SERVER_URL_CHARS,
  MCP_SERVER_LABEL_PATTERN,
  MCP_TOOL,
  RESPONSE_FORMAT_NAME_PATTERN,
  type ApprovalPolicy,
} from '@pylon/contracts';
import { OrgPageQuery } from '../../common/pagination.dto';

export class CreateAgentRequest {
  @ApiProperty({ format: 'uuid' })
  @IsUuid()
  org_id!: string;

  @ApiProperty({ minLength: 1, maxLength: 200, example: 'Support assistant' })
  @IsString()
  @Length(1, 200)
  name!: string;
}

export class AgentView {
  @ApiProperty({ format: 'uuid' }) agent_id!: string;
  @ApiProperty({ format: 'uuid' }) org_id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

export class AgentList {
  @ApiProperty({ type: [AgentView] }) data!: AgentView[];
  @ApiProperty({ type: String, nullable: true }) next_cursor!: string | null;
}

const TOOL_TYPES = [KNOWLEDGE_SEARCH_TOOL, FUNCTION_TOOL, MCP_TOOL] as const;
type ToolType = (typeof TOOL_TYPES)[number];

export class AgentToolRequest {
  @ApiProperty({
    enum: TOOL_TYPES,
    description:
      '`knowledge_search`: Pylon searches the knowledge bases (takes `match_count`, `require_approval`, `knowledge_base_ids`). `function`: a tool the caller runs; the run waits for its output (takes `name`, `description`, `parameters`). `mcp`: the tools of an MCP server, called by Pylon as `<server_label>.<tool>` (takes `server_label`, `server_url`, `allowed_tools`, `headers`, `require_approval`).',
  })
  @IsIn(TOOL_TYPES)
  type!: ToolType;

  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    minimum: 1,
    maximum: 20,
    default: DEFAULT_TOOL_MATCH_COUNT,
    description: 'knowledge_search only. null or absent: the default.',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(20)
  match_count?: number | null;

  @ApiPropertyOptional({
    enum: APPROVAL_POLICIES,
    default: 'never',
    description: 'knowledge_search and mcp. `always`: each call waits for a person to approve it (POST /api/v1/agent-runs/{run_id}/tool-approvals).',
  })
  @IsOmittable()
  @IsIn(APPROVAL_POLICIES)
  require_approval?: ApprovalPolicy;

  @ApiPropertyOptional({
    type: [String],
    format: 'uuid',
    nullable: true,
    minItems: 1,
    maxItems: MAX_SCOPED_KNOWLEDGE_BASES,
    description:
      "knowledge_search only: search only these of the organisation's knowledge bases (each must exist when the version is created, else 400); null or absent: all of them.",
  })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_SCOPED_KNOWLEDGE_BASES)
  @IsUuid({ each: true })
  knowledge_base_ids?: string[] | null;

  @ApiPropertyOptional({ pattern: FUNCTION_TOOL_NAME_PATTERN, description: 'function only, required: unique within the version.' })
  @IsOmittable()
  @IsString()
  @Matches(new RegExp(FUNCTION_TOOL_NAME_PATTERN), { message: `name must match ${FUNCTION_TOOL_NAME_PATTERN}` })
  name?: string;

  @ApiPropertyOptional({ maxLength: 1024, description: 'function only: what the tool does, for the model.' })
  @IsOmittable()
  @IsString()
  @MaxLength(1024)
  description?: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'function only, required: a JSON Schema (type "object") of the arguments, checked as a schema when the version is created.',
    example: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
  })
  @IsOmittable()
  @IsObject()
  parameters?: Record<string, unknown>;

  @ApiPropertyOptional({
    pattern: MCP_SERVER_LABEL_PATTERN,
    description: "mcp only, required: unique within the version; the model sees the server's tools as `<server_label>.<tool>`.",
    example: 'docs',
  })
  @IsOmittable()
  @IsString()
  @MaxLength(32)
  server_label?: string;

  @ApiPropertyOptional({
    format: 'uri',
    maxLength: MAX_MCP_SERVER_URL_CHARS,
    description:
      "mcp only, required: the server's http(s) endpoint (Streamable HTTP; SSE servers too). Reached only at public addresses, unless the operator allows private ones (WEBHOOK_ALLOWED_PRIVATE_TARGETS): a literal address (or localhost) it refuses is 400 here, a name is checked on every connection.",
    example: 'https://mcp.example.com/mcp',
  })
  @IsOmittable()
  @IsString()
  @MaxLength(MAX_MCP_SERVER_URL_CHARS)
  server_url?: string;

  @ApiPropertyOptional({
    type: [String],
    nullable: true,
    minItems: 1,
    maxItems: MAX_MCP_ALLOWED_TOOLS,
    description: "mcp only: offer only these of the server's tools; null or absent: all it lists.",
  })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_MCP_ALLOWED_TOOLS)
  @IsString({ each: true })
  allowed_tools?: string[] | null;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    nullable: true,
    maxProperties: MAX_MCP_HEADERS,
    description:
      'mcp only: headers sent to the server, e.g. {"Authorization": "Bearer …"}. Secrets: encrypted at rest (SECRETS_KEY), never returned (every response shows each value as "' +
      MASKED_HEADER_VALUE +
      '"), never logged.',
    example: { Authorization: 'Bearer <token>' },
  })
  @IsOptional()
  @IsObject()
  headers?: Record<string, string> | null;
}

export class AgentToolView {
  @ApiProperty({ enum: TOOL_TYPES }) type!: ToolType;
  @ApiPropertyOptional({ type: 'integer', description: 'knowledge_search' }) match_count?: number;
  @ApiPropertyOptional({ enum: APPROVAL_POLICIES, description: 'knowledge_search, mcp' }) require_approval?: ApprovalPolicy;
  @ApiPropertyOptional({ type: [String], format: 'uuid', description: 'knowledge_search, when it searches only these knowledge bases' })
  knowledge_base_ids?: string[];
  @ApiPropertyOptional({ description: 'mcp' }) server_label?: string;
  @ApiPropertyOptional({ description: 'mcp' }) server_url?: string;
  @ApiPropertyOptional({ type: [String], nullable: true, description: 'mcp: null for all the server lists' }) allowed_tools?: string[] | null;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string', enum: [MASKED_HEADER_VALUE] },
    description: `mcp: the header names; every value is shown as "${MASKED_HEADER_VALUE}"`,
  })
  headers?: Record<string, string>;
  @ApiPropertyOptional({ description: 'function' }) name?: string;
  @ApiPropertyOptional({ description: 'function' }) description?: string;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'function' }) parameters?: Record<string, unknown>;
}

export class ResponseFormatRequest {
  @ApiProperty({ enum: ['json_schema'], description: 'The final answer is JSON matching `schema`.' })
  @IsIn(['json_schema'])
  type!: 'json_schema';

  @ApiProperty({ pattern: RESPONSE_FORMAT_NAME_PATTERN, description: "The schema's name (OpenAI's `json_schema.name`).", example: 'ticket_summary' })
  @IsString()
  @Matches(new RegExp(RESPONSE_FORMAT_NAME_PATTERN), { message: `name must match ${RESPONSE_FORMAT_NAME_PATTERN}` })
  name!: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      'A JSON Schema of the answer, compiled (Ajv, strict) when the version is created. local/* models fill only an object of strings, numbers, integers, booleans and enums.',
    example: { type: 'object', properties: { summary: { type: 'string' }, priority: { enum: ['low', 'high'] } }, required: ['summary', 'priority'] },
  })
  @IsObject()
  schema!: Record<string, unknown>;

  @ApiPropertyOptional({ default: true, description: "OpenAI's strict mode; Pylon checks every answer against the schema either way." })
  @IsOmittable()
  @IsBoolean()
  strict?: boolean;
}

/**
 * The response format inline and nullable (OpenAPI 3.0 cannot mark a `$ref` nullable), for the request
 * (where `strict` may be left out) and the version (where it is always shown).
 */
function responseFormatSchema({ strictRequired }: { strictRequired: boolean }): ApiPropertyOptions {
  return {
    type: 'object' as const,
    nullable: true,
    additionalProperties: false,
    required: ['type', 'name', 'schema', ...(strictRequired ? ['strict'] : [])],
    properties: {
      type: { type: 'string', enum: ['json_schema'] },
      name: { type: 'string', pattern: RESPONSE_FORMAT_NAME_PATTERN },
      schema: { type: 'object', additionalProperties: true },
      strict: { type: 'boolean', default: true },
    },
  } as ApiPropertyOptions;
}

export class ResponseFormatView {
  @ApiProperty({ enum: ['json_schema'] }) type!: 'json_schema';
  @ApiProperty() name!: string;
  @ApiProperty({ type: 'object', additionalProperties: true }) schema!: Record<string, unknown>;
  @ApiProperty() strict!: boolean;
}

/** A `provider/model` id as a version names it. */
const MODEL_ID_PATTERN = /^[a-z][a-z0-9-]*\/\S{1,200}$/;

export class CreateAgentVersionRequest {
  @ApiProperty({
    description:
      '`provider/model`: `local/extractive` or `local/echo` offline, `openai/<model>`, `anthropic/<model>`, `google/<model>`, or `<endpoint>/<model>` for an endpoint the operator named; GET /api/v1/models lists what the organisation can run (another is 400).',
    pattern: MODEL_ID_PATTERN.source,
    example: 'local/extractive',
  })
  @IsString()
  @Matches(MODEL_ID_PATTERN, { message: 'model must look like provider/model' })
  model!: string;

  @ApiPropertyOptional({
    type: [String],
    nullable: true,
    maxItems: 3,
    items: { type: 'string', pattern: MODEL_ID_PATTERN.source },
    description:
      "Models that take a turn `model` cannot (its provider overloaded, failing or rate-limited after the retries), tried in order; the run's events say so (`model_fallback`). A refusal (bad request, content policy) never falls back. Each must be one the organisation can run, named once. null or absent: none.",
    example: ['anthropic/claude-sonnet-4-5'],
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(3)
  @IsString({ each: true })
  @Matches(MODEL_ID_PATTERN, { each: true, message: 'fallback_models must be provider/model ids' })
  fallback_models?: string[] | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    pattern: MODEL_ID_PATTERN.source,
    description:
      "The model that summarises a conversation's oldest turns when they no longer fit the context (a `compaction` item); one the organisation can run. null or absent: `model` itself (`local/*` summarises extractively).",
    example: 'openai/gpt-5-mini',
  })
  @IsOptional()
  @IsString()
  @Matches(MODEL_ID_PATTERN, { message: 'compaction_model must look like provider/model' })
  compaction_model?: string | null;

  @ApiProperty({ maxLength: 32_000 })
  @IsString()
  @MaxLength(32_000)
  instructions!: string;

  @ApiPropertyOptional({ minimum: 0, maximum: 2 })
  @IsOmittable()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(2)
  temperature?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 128_000 })
  @IsOmittable()
  @IsInt()
  @Min(1)
  @Max(128_000)
  max_output_tokens?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 86_400, description: 'A run of this version that takes longer ends failed.' })
  @IsOmittable()
  @IsInt()
  @Min(1)
  @Max(86_400)
  run_timeout_seconds?: number;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: MAX_ACTION_TIMEOUT_SECONDS,
    default: DEFAULT_ACTION_TIMEOUT_SECONDS,
    description:
      'How long a run waits for a required action (tool outputs, approvals) before it ends failed with "required action expired". Waiting does not count against run_timeout_seconds.',
  })
  @IsOmittable()
  @IsInt()
  @Min(1)
  @Max(MAX_ACTION_TIMEOUT_SECONDS)
  action_timeout_seconds?: number;

  @ApiPropertyOptional({
    type: [AgentToolRequest],
    nullable: true,
    maxItems: MAX_AGENT_TOOLS,
    description:
      'Tools the model may call, e.g. [{"type": "knowledge_search", "match_count": 6}, {"type": "function", "name": "lookup_order", "parameters": {"type": "object", "properties": {"order_id": {"type": "string"}}}}]; null or absent: none. knowledge_search at most once; function names unique.',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_AGENT_TOOLS)
  @ValidateNested({ each: true })
  @Type(() => AgentToolRequest)
  tools?: AgentToolRequest[] | null;

  @ApiPropertyOptional({
    ...responseFormatSchema({ strictRequired: false }),
    description:
      'Structured output: the final answer must be JSON matching the schema. It is checked (one repair turn when it does not match, then the run fails with "output did not match the schema: <path> <message>"); `output` holds the JSON text and the `succeeded` event also carries it parsed as `output_parsed`. null or absent: free text.',
  })
  @IsOptional()
  @ValidateNested()
  @Type(() => ResponseFormatRequest)
  response_format?: ResponseFormatRequest | null;
}

export class AgentVersionView {
  @ApiProperty({ format: 'uuid' }) agent_version_id!: string;
  @ApiProperty({ format: 'uuid' }) agent_id!: string;
  @ApiProperty({ format: 'uuid' }) org_id!: string;
  @ApiProperty({ type: 'integer', description: '1 for the first version of an agent, then 2, 3…' }) version!: number;
  @ApiProperty() model!: string;
  @ApiProperty({ type: [String], description: 'The models that take a turn `model` cannot, in order.' }) fallback_models!: string[];
  @ApiProperty({ type: String, nullable: true, description: 'The model that summarises the oldest turns; null: `model`.' })
  compaction_model!: string | null;
  @ApiProperty() instructions!: string;
  @ApiProperty({ type: Number, nullable: true }) temperature!: number | null;
  @ApiProperty({ type: 'integer', nullable: true }) max_output_tokens!: number | null;
  @ApiProperty({ type: 'integer' }) run_timeout_seconds!: number;
  @ApiProperty({ type: 'integer' }) action_timeout_seconds!: number;
  @ApiProperty({ type: [AgentToolView] }) tools!: AgentToolView[];
  @ApiProperty({ ...responseFormatSchema({ strictRequired: true }), description: 'The structured output; null: free text.' } as ApiPropertyOptions)
  response_format!: ResponseFormatView | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

export class ModelProviderView {
  @ApiProperty({ example: 'openai', description: 'The `provider` part of a `provider/model` id.' }) provider!: string;
  @ApiProperty({ description: 'Whether this server has its own key for the provider (for `openai`: OPENAI_API_KEY is set), or needs none.' })
  configured!: boolean;
  @ApiProperty({
    description:
      "Whether the organisation can run its models: on its own key (PUT /api/v1/model-credentials/{provider}), or on the server's when the operator shares it. A version naming a provider that is not available is 400.",
  })
  available!: boolean;
  @ApiProperty({ description: 'Whether the provider authenticates with an API key, so that the organisation may set its own.' })
  takes_key!: boolean;
  @ApiProperty({
    enum: ['organization', 'operator'],
    nullable: true,
    type: String,
    description: "Whose key its runs use: the organisation's own, the server's, or null (none usable, or the provider takes none).",
  })
  key_source!: 'organization' | 'operator' | null;
  @ApiProperty({
    type: [String],
    nullable: true,
    example: ['local/extractive', 'local/echo'],
    description: 'Its models as `provider/model` ids; null when any `provider/<model name>` is accepted.',
  })
  models!: string[] | null;
}

export class ModelProviderList {
  @ApiProperty({ type: [ModelProviderView] }) data!: ModelProviderView[];
}

export class AgentVersionList {
  @ApiProperty({ type: [AgentVersionView] }) data!: AgentVersionView[];
  @ApiProperty({ type: String, nullable: true }) next_cursor!: string | null;
}

export class ListAgentsQuery extends OrgPageQuery {}
