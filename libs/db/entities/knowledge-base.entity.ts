import { Column, Entity } from 'typeorm';
import { ChangingResource } from './org-owned';

/** A named group of an organisation's knowledge documents; its default base is its oldest. */
@Entity({ name: 'knowledge_bases' })
export class KnowledgeBase extends ChangingResource {
  @Column('text')
  name!: string;

  @Column('text', { nullable: true })
  description!: string | null;
}
