import { Column, Entity } from 'typeorm';
import { ChangingResource } from './org-owned';
import type { VideoAspectRatio, VideoState } from '@pylon/contracts';

@Entity({ name: 'video_generations' })
export class VideoGeneration extends ChangingResource {
  /** The generation this one extends. */
  @Column('uuid', { name: 'parent_id', nullable: true })
  parentId!: string | null;

  @Column('text')
  prompt!: string;

  @Column('text', { name: 'aspect_ratio' })
  aspectRatio!: VideoAspectRatio;

  @Column('boolean', { name: 'expand_prompt' })
  expandPrompt!: boolean;

  @Column('text', { name: 'image_url', nullable: true })
  imageUrl!: string | null;

  @Column('text', { name: 'image_end_url', nullable: true })
  imageEndUrl!: string | null;

  @Column('text')
  state!: VideoState;

  @Column('text')
  provider!: string;

  @Column('text', { name: 'provider_job_id', nullable: true })
  providerJobId!: string | null;

  @Column('text', { name: 'estimate_wait_seconds', nullable: true })
  estimateWaitSeconds!: string | null;

  @Column('text', { nullable: true })
  liked!: string | null;

  @Column('text', { name: 'video_url', nullable: true })
  videoUrl!: string | null;

  @Column('text', { name: 'thumbnail_url', nullable: true })
  thumbnailUrl!: string | null;

  @Column('integer', { nullable: true })
  width!: number | null;

  @Column('integer', { nullable: true })
  height!: number | null;

  @Column('text', { name: 'failure_reason', nullable: true })
  failureReason!: string | null;

  @Column('uuid', { name: 'debit_entry_id', nullable: true })
  debitEntryId!: string | null;
}
