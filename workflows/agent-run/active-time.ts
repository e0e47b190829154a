import { CancellationScope } from '@temporalio/workflow';

/** The run timeout counts the time the run works (model turns, tools), never the time it waits. */
export class ActiveTime {
  private spentMs = 0;

  constructor(private readonly budgetMs: number) {}

  async counting<T>(work: () => Promise<T>): Promise<T> {
    const started = Date.now();
    try {
      return await CancellationScope.withTimeout(Math.max(this.budgetMs - this.spentMs, 1), work);
    } finally {
      this.spentMs += Date.now() - started;
    }
  }
}
