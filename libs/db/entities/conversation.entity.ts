import { Column, Entity } from 'typeorm';
import { CreatedOnce } from './org-owned';

/** A conversation: its runs are its turns, its items what the model saw and said. */
@Entity({ name: 'conversations' })
export class Conversation extends CreatedOnce {
  @Column('jsonb')
  metadata!: Record<string, unknown>;

  /** How many turns were accepted; the next turn is numbered one more. */
  @Column('integer')
  turns!: number;
}
