import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import type { AgentToolConfig, JsonSchemaResponseFormat } from '@pylon/contracts';

/** Immutable once created: a database trigger refuses every UPDATE. */
@Entity({ name: 'agent_versions' })
export class AgentVersion {
  @PrimaryColumn('uuid')
  id!: string;

  @Column('uuid', { name: 'agent_id' })
  agentId!: string;

  @Column('uuid', { name: 'org_id' })
  orgId!: string;

  @Column('integer')
  version!: number;

  /** `provider/model`, e.g. `openai/gpt-4o-mini` or `local/extractive`. */
  @Column('text')
  model!: string;

  /** The models that take a turn `model` could not (its provider down after its retries), in order; at most 3. */
  @Column('jsonb', { name: 'fallback_models', default: () => "'[]'" })
  fallbackModels!: string[];

  /** The model that summarises the conversation's oldest turns when they no longer fit; null: `model` itself. */
  @Column('text', { name: 'compaction_model', nullable: true })
  compactionModel!: string | null;

  @Column('text')
  instructions!: string;

  @Column('double precision', { nullable: true })
  temperature!: number | null;

  @Column('integer', { name: 'max_output_tokens', nullable: true })
  maxOutputTokens!: number | null;

  @Column('integer', { name: 'run_timeout_seconds' })
  runTimeoutSeconds!: number;

  @Column('jsonb')
  tools!: AgentToolConfig[];

  /** How long a run of this version waits for a required action (tool outputs, approvals) before it fails. */
  @Column('integer', { name: 'action_timeout_seconds' })
  actionTimeoutSeconds!: number;

  /** The final answer's JSON Schema, or null for free text. */
  @Column('jsonb', { name: 'response_format', nullable: true })
  responseFormat!: JsonSchemaResponseFormat | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column('text', { name: 'idempotency_key', nullable: true })
  idempotencyKey!: string | null;

  @Column('text', { name: 'request_hash', nullable: true })
  requestHash!: string | null;
}
