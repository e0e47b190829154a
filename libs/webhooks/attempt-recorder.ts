import type { AttemptOfDelivery } from './repositories/webhook-delivery.repository';

type Write = (attempts: AttemptOfDelivery[]) => Promise<void>;

interface Waiting extends AttemptOfDelivery {
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Writes attempts as they finish, in as few statements as they allow: the attempts that finish while
 * a write is under way (an event's twenty endpoints refusing at once, say) go together in the next one.
 * Each caller's promise settles when its own attempt is stored, so nothing is reported recorded early.
 */
export class AttemptRecorder {
  private waiting: Waiting[] = [];
  private writing = false;

  constructor(private readonly write: Write) {}

  record(orgId: string, deliveryId: string, record: AttemptOfDelivery['record']): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ orgId, deliveryId, record, resolve, reject });
      if (!this.writing) {
        this.writing = true;
        // Let the attempts that finish in this turn of the event loop join the first write.
        setImmediate(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    while (this.waiting.length > 0) {
      const batch = this.takeDistinct();
      try {
        await this.write(batch.map(({ orgId, deliveryId, record }) => ({ orgId, deliveryId, record })));
        for (const attempt of batch) attempt.resolve();
      } catch (error) {
        for (const attempt of batch) attempt.reject(error);
      }
    }
    this.writing = false;
  }

  /** The waiting attempts of distinct deliveries (a second attempt of one waits for the next write). */
  private takeDistinct(): Waiting[] {
    const seen = new Set<string>();
    const batch: Waiting[] = [];
    const rest: Waiting[] = [];
    for (const attempt of this.waiting) {
      if (seen.has(attempt.deliveryId)) rest.push(attempt);
      else {
        seen.add(attempt.deliveryId);
        batch.push(attempt);
      }
    }
    this.waiting = rest;
    return batch;
  }
}
