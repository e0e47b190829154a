import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';

/** For a service whose rule spans repositories (a generation and its debit): their statements in one transaction. */
@Injectable()
export class Transactions {
  constructor(private readonly db: DataSource) {}

  /** Runs `work` in one transaction: every statement made through `manager` commits together, or none does. */
  run<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }
}
