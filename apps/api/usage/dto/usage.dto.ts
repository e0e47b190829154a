import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

const COUNT = { type: 'integer', minimum: 0 } as const;

export class RunDurationView {
  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'Median of updated_at − created_at of the finished runs, in ms; null when none finished.',
  })
  p50!: number | null;
  @ApiProperty({ type: 'integer', nullable: true, description: '95th percentile, in ms; null when none finished.' })
  p95!: number | null;
}

export class RunUsageView {
  @ApiProperty({ ...COUNT, description: 'Runs created in the window.' }) total!: number;
  @ApiProperty(COUNT) succeeded!: number;
  @ApiProperty({ ...COUNT, description: 'Failed, not counting the cancelled ones.' }) failed!: number;
  @ApiProperty({ ...COUNT, description: 'Cancelled through the API (status `failed`, error `cancelled`).' }) cancelled!: number;
  @ApiProperty({ ...COUNT, description: '`queued` or `running`.' }) in_progress!: number;
  @ApiProperty({
    type: 'number',
    nullable: true,
    minimum: 0,
    maximum: 1,
    description: 'succeeded / finished (succeeded, failed or cancelled), to 4 decimals; null when none finished.',
  })
  success_rate!: number | null;
  @ApiProperty({ type: RunDurationView }) duration_ms!: RunDurationView;
}

export class DocumentUsageView {
  @ApiProperty(COUNT) total!: number;
  @ApiProperty(COUNT) ready!: number;
  @ApiProperty(COUNT) failed!: number;
  @ApiProperty(COUNT) processing!: number;
}

export class VideoUsageView {
  @ApiProperty(COUNT) total!: number;
  @ApiProperty(COUNT) completed!: number;
  @ApiProperty(COUNT) failed!: number;
  @ApiProperty({ ...COUNT, description: '`pending` or `processing`.' }) in_progress!: number;
}

export class DeliveryUsageView {
  @ApiProperty({ ...COUNT, description: 'Webhook deliveries (one per event and endpoint) created in the window.' }) total!: number;
  @ApiProperty(COUNT) delivered!: number;
  @ApiProperty(COUNT) failed!: number;
  @ApiProperty({ ...COUNT, description: 'Not delivered yet: being attempted or waiting for a retry.' }) pending!: number;
}

export class TokenUsageView {
  @ApiProperty({ ...COUNT, description: 'Tokens granted in the window.' }) granted!: number;
  @ApiProperty({ ...COUNT, description: 'Tokens debited (video generations and extensions, model turns of agent runs).' }) debited!: number;
  @ApiProperty({ ...COUNT, description: 'Tokens refunded (failed or cancelled generations).' }) refunded!: number;
}

export class ModelUsageView {
  @ApiProperty({ ...COUNT, description: 'Model calls of agent runs (a repair turn counts as one).' }) turns!: number;
  @ApiProperty({ ...COUNT }) input_tokens!: number;
  @ApiProperty({ ...COUNT }) output_tokens!: number;
  @ApiProperty({ ...COUNT, description: 'Service tokens debited for model turns of runs (see GET /api/v1/agent-runs/{run_id}/usage).' })
  run_cost_tokens!: number;
}

export class UsageWindowView {
  @ApiProperty({ enum: ['24h', '30d'] }) window!: '24h' | '30d';
  @ApiProperty({ format: 'date-time', description: 'The window is [since, generated_at]; work counts in the window it was created in.' })
  since!: string;
  @ApiPropertyOptional({ type: RunUsageView, description: 'Present only for a key with `runs:read`.' }) runs?: RunUsageView;
  @ApiPropertyOptional({ type: ModelUsageView, description: 'Present only for a key with `runs:read`.' }) models?: ModelUsageView;
  @ApiPropertyOptional({ type: DocumentUsageView, description: 'Knowledge documents; present only for a key with `kb:read`.' })
  documents?: DocumentUsageView;
  @ApiPropertyOptional({ type: VideoUsageView, description: 'Video generations; present only for a key with `video:read`.' })
  videos?: VideoUsageView;
  @ApiPropertyOptional({ type: DeliveryUsageView, description: 'Present only for a key with `webhooks:manage`.' })
  deliveries?: DeliveryUsageView;
  @ApiPropertyOptional({ type: TokenUsageView, description: 'Present only for a key with `tokens:read`.' }) tokens?: TokenUsageView;
}

export class FailingEndpointView {
  @ApiProperty({ format: 'uuid' }) endpoint_id!: string;
  @ApiProperty() url!: string;
  @ApiProperty() enabled!: boolean;
  @ApiProperty({ ...COUNT, description: 'Attempts in the last 24 h that got no answer or an answer other than 2xx.' }) failed_24h!: number;
  @ApiProperty({ ...COUNT, description: 'Deliveries that ended failed in the last 24 h (retries used up, or the endpoint disabled or deleted).' })
  failed_deliveries_24h!: number;
  @ApiProperty({ format: 'date-time' }) last_failure_at!: string;
  @ApiProperty({ type: String, nullable: true, description: 'The error of the latest failure (`HTTP <status>` for an answer other than 2xx).' })
  last_error!: string | null;
}

export class RecentFailureView {
  @ApiProperty({ enum: ['agent_run', 'knowledge_document', 'video_generation', 'webhook_delivery'] }) kind!: string;
  @ApiProperty({ format: 'uuid', description: 'The run, document, generation or delivery.' }) id!: string;
  @ApiProperty({
    type: String,
    nullable: true,
    description: "The run's error, the document's or generation's failure_reason, the delivery's last error.",
  })
  reason!: string | null;
  @ApiProperty({ format: 'date-time', description: 'When it failed (its updated_at).' }) at!: string;
}

export class KeyUsageView {
  @ApiProperty({ format: 'uuid' }) key_id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ example: 'pyl_AbCd…' }) hint!: string;
  @ApiProperty({ ...COUNT, description: 'Authenticated requests with this key in the hours overlapping the last 24 h.' }) requests_24h!: number;
  @ApiProperty({ ...COUNT, description: 'The same over the last 30 days.' }) requests_30d!: number;
  @ApiProperty({ type: String, nullable: true, format: 'date-time', description: 'Written at most once per API_KEY_LAST_USED_DEBOUNCE_SECONDS.' })
  last_used_at!: string | null;
}

export class UsageView {
  @ApiProperty({ format: 'uuid' }) org_id!: string;
  @ApiProperty({ format: 'date-time' }) generated_at!: string;
  @ApiProperty({ type: [UsageWindowView], description: 'The last 24 hours, then the last 30 days.' }) windows!: UsageWindowView[];
  @ApiPropertyOptional({
    type: [FailingEndpointView],
    description: 'Webhook endpoints with failures in the last 24 h, worst first, at most 10; present only for a key with `webhooks:manage`.',
  })
  failing_endpoints?: FailingEndpointView[];
  @ApiPropertyOptional({
    type: [RecentFailureView],
    description:
      'The 10 newest failures (cancellations are not failures) of the kinds the key may read: runs (`runs:read`), documents (`kb:read`), video generations (`video:read`), webhook deliveries (`webhooks:manage`); present when the key has at least one of those scopes.',
  })
  recent_failures?: RecentFailureView[];
  @ApiPropertyOptional({
    type: [KeyUsageView],
    description: "The organisation's keys that are not revoked, newest first, with their request counts; present only for a key with `keys:manage`.",
  })
  api_keys?: KeyUsageView[];
}
