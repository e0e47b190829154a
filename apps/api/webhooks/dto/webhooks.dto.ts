import { IsUuid } from '../../common/uuid';
import { IsOmittable } from '../../common/omittable';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsISO8601,
  IsOptional,
  IsString,
  Length,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import {
  DELIVERY_EVENT_TYPES,
  DELIVERY_STATUSES,
  RECOVER_MAX_AGE_DAYS,
  RECOVER_MAX_DELIVERIES,
  WEBHOOK_EVENT_TYPES,
  type DeliveryStatus,
} from '@pylon/contracts';
import { PageQuery } from '../../common/pagination.dto';

export class CreateWebhookEndpointRequest {
  @ApiProperty({ format: 'uuid' })
  @IsUuid()
  org_id!: string;

  @ApiProperty({ format: 'uri', maxLength: 2_048, example: 'https://example.com/pylon-webhooks' })
  @IsString()
  @MaxLength(2_048)
  url!: string;

  @ApiPropertyOptional({ type: [String], enum: WEBHOOK_EVENT_TYPES, minItems: 1, uniqueItems: true, description: 'Omit to receive every event.' })
  @IsOmittable()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayUnique()
  @IsIn(WEBHOOK_EVENT_TYPES, { each: true })
  events?: string[];

  @ApiPropertyOptional({ maxLength: 500 })
  @IsOmittable()
  @IsString()
  @MaxLength(500)
  description?: string;
}

export class UpdateWebhookEndpointRequest {
  @ApiPropertyOptional({ format: 'uri', maxLength: 2_048 })
  @IsOmittable()
  @IsString()
  @MaxLength(2_048)
  url?: string;

  @ApiPropertyOptional({
    type: [String],
    enum: WEBHOOK_EVENT_TYPES,
    minItems: 1,
    uniqueItems: true,
    nullable: true,
    description: 'null: every event.',
  })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayUnique()
  @IsIn(WEBHOOK_EVENT_TYPES, { each: true })
  events?: string[] | null;

  @ApiPropertyOptional()
  @IsOmittable()
  @IsBoolean()
  enabled?: boolean;

  @ApiPropertyOptional({ maxLength: 500 })
  @IsOmittable()
  @IsString()
  @MaxLength(500)
  description?: string;
}

export class RotateSecretRequest {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: 2_592_000,
    description: 'How long the old secret keeps signing (default WEBHOOK_SECRET_GRACE_SECONDS).',
  })
  @IsOmittable()
  @IsInt()
  @Min(0)
  @Max(2_592_000)
  grace_seconds?: number;
}

export class WebhookEndpointView {
  @ApiProperty({ format: 'uuid' }) endpoint_id!: string;
  @ApiProperty({ format: 'uuid' }) org_id!: string;
  @ApiProperty() url!: string;
  @ApiProperty({ type: String, nullable: true }) description!: string | null;
  @ApiProperty({ type: [String], nullable: true }) events!: string[] | null;
  @ApiProperty() enabled!: boolean;
  @ApiProperty({ type: String, nullable: true }) disabled_reason!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'Until when the secret before the last rotation also signs.' })
  previous_secret_expires_at!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

export class WebhookEndpointWithSecret extends WebhookEndpointView {
  @ApiProperty({ description: 'The signing secret `whsec_…`, shown only in this response.' }) secret!: string;
}

export class WebhookEndpointList {
  @ApiProperty({ type: [WebhookEndpointView] }) data!: WebhookEndpointView[];
  @ApiProperty({ type: String, nullable: true }) next_cursor!: string | null;
}

const HEADERS = { type: 'object', additionalProperties: { type: 'string' } } as const;

export class WebhookAttemptView {
  @ApiProperty() attempt!: number;
  @ApiProperty({ format: 'date-time' }) started_at!: string;
  @ApiProperty() duration_ms!: number;
  @ApiProperty({
    ...HEADERS,
    nullable: true,
    description:
      "Every header this attempt sent, names in lower case: the request's headers with this attempt's `webhook-timestamp` and `webhook-signature` (and `content-length`). null when no request was made (a refused address) or for attempts recorded before headers were kept.",
  })
  request_headers!: Record<string, string> | null;
  @ApiProperty({ type: Number, nullable: true }) status_code!: number | null;
  @ApiProperty({
    ...HEADERS,
    nullable: true,
    description:
      "The receiver's answer's headers, names in lower case, a repeated header's values joined with `, `: at most 30 headers, each value cut to 500 characters. null without an answer, or for attempts recorded before headers were kept.",
  })
  response_headers!: Record<string, string> | null;
  @ApiProperty({ type: String, nullable: true, description: 'The first bytes of the response.' }) response_excerpt!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'The network error, timeout or refusal.' }) error!: string | null;
}

export class WebhookRequestView {
  @ApiProperty({ description: 'The exact body POSTed on every attempt: the event envelope `{id, type, created_at, data}` as JSON text.' })
  body!: string;
  @ApiProperty({
    ...HEADERS,
    description:
      'The headers every attempt sends alike: `content-type`, `user-agent` and `webhook-id` (the message id, which is the event id). Each attempt adds its own `webhook-timestamp` and `webhook-signature` (see its request_headers).',
  })
  headers!: Record<string, string>;
}

export class WebhookDeliveryView {
  @ApiProperty({ format: 'uuid' }) delivery_id!: string;
  @ApiProperty({ format: 'uuid' }) endpoint_id!: string;
  @ApiProperty({ format: 'uuid' }) event_id!: string;
  @ApiProperty() event_type!: string;
  @ApiProperty({ enum: DELIVERY_STATUSES }) status!: DeliveryStatus;
  @ApiProperty() attempt_count!: number;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) next_attempt_at!: string | null;
  @ApiProperty({ type: Number, nullable: true }) last_status_code!: number | null;
  @ApiProperty({ type: String, nullable: true }) last_error!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) delivered_at!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ type: WebhookRequestView, nullable: true, description: 'What this delivery POSTs (null only if its event is gone).' })
  request!: WebhookRequestView | null;
  @ApiProperty({ type: [WebhookAttemptView] }) attempts!: WebhookAttemptView[];
}

export class WebhookDeliveryList {
  @ApiProperty({ type: [WebhookDeliveryView] }) data!: WebhookDeliveryView[];
  @ApiProperty({ type: String, nullable: true }) next_cursor!: string | null;
}

export class ListDeliveriesQuery extends PageQuery {
  @ApiPropertyOptional({ enum: DELIVERY_STATUSES })
  @IsOmittable()
  @IsIn(DELIVERY_STATUSES)
  status?: DeliveryStatus;

  @ApiPropertyOptional({ enum: DELIVERY_EVENT_TYPES, description: 'Only deliveries of this event type.' })
  @IsOmittable()
  @IsIn(DELIVERY_EVENT_TYPES)
  event_type?: string;

  @ApiPropertyOptional({
    format: 'uuid',
    description: "Only the delivery of this event: the event's id, which is also the message id (the `webhook-id` header) receivers see.",
  })
  @IsOmittable()
  @IsUuid()
  event_id?: string;
}

export class RecoverDeliveriesRequest {
  @ApiProperty({
    type: String,
    format: 'date-time',
    description: `Re-send the endpoint's failed deliveries created at or after this time: not in the future, at most ${RECOVER_MAX_AGE_DAYS} days ago.`,
  })
  @IsISO8601({ strict: true })
  since!: string;
}

export class RecoveredDeliveriesView {
  @ApiProperty({
    minimum: 0,
    maximum: RECOVER_MAX_DELIVERIES,
    description: 'How many failed deliveries this re-sends (each now pending, one attempt each).',
  })
  recovered!: number;
  @ApiProperty({ type: [String], format: 'uuid', maxItems: RECOVER_MAX_DELIVERIES, description: 'Their ids, oldest first.' })
  delivery_ids!: string[];
  @ApiProperty({
    description: `More failed deliveries since then remain than one call re-sends (${RECOVER_MAX_DELIVERIES}): call again with the same since for the next ones.`,
  })
  has_more!: boolean;
}

export class DisableWebhookEndpointsRequest {
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    minLength: 1,
    maxLength: 500,
    description: "Why; the organisation sees it as each endpoint's disabled_reason (null or absent: none given).",
  })
  @IsOptional()
  @IsString()
  @Length(1, 500)
  reason?: string | null;
}

export class DisabledWebhookEndpointsView {
  @ApiProperty({ minimum: 0, description: 'How many enabled endpoints this disabled.' })
  disabled!: number;
}
