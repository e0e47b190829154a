import { createHash } from 'node:crypto';
import { PylonError, ErrorCode } from '@pylon/contracts';

/** A stable fingerprint of a request body, to tell a retry from a different request under the same key. */
export function fingerprint(fields: Record<string, string>): string {
  const canonical = JSON.stringify(
    Object.keys(fields)
      .sort()
      .map((key) => [key, fields[key]]),
  );
  return createHash('sha256').update(canonical).digest('hex');
}

/** A retry under the same Idempotency-Key must carry the same request: otherwise 409 `idempotency_key_reused`. */
function assertSameRequest(earlier: { requestHash: string | null }, requestHash: string): void {
  if (earlier.requestHash !== requestHash) {
    throw new PylonError(ErrorCode.IdempotencyKeyReused, 'this Idempotency-Key was used with a different request');
  }
}

/** The steps of a create that an Idempotency-Key makes safe to retry; see createOnce. */
export interface CreateOnceSteps<T extends { requestHash: string | null }> {
  /** The resource an earlier request with this key created, or null. */
  findByKey(idempotencyKey: string): Promise<T | null>;
  /** Checks before anything is written (what the request refers to, admission); throws to refuse. */
  admit(): Promise<void>;
  /** Writes the resource; null, with nothing written, when a concurrent request with the same key wrote first. */
  insert(): Promise<T | null>;
  /** The work a resource starts (a workflow), if it starts any. */
  work?: {
    /** Whether a resource still waits for its work (a process may have died between writing it and starting that). */
    awaitsStart(resource: T): boolean;
    /** Starts the resource's work; starting it twice starts it once (its workflow id is the resource's). */
    start(resource: T): Promise<void>;
    /** After start failed: takes the resource back (deletes it, or fails and refunds it) and says what to answer. */
    undo(resource: T, error: unknown): Promise<Error>;
  };
}

/**
 * A create that an Idempotency-Key makes safe to retry (runs, documents, videos, token grants): a key
 * seen before answers what it created (409 if the request differs), and starts its work if it never
 * started; two requests racing with one key create one resource (the loser's insert writes nothing and
 * it answers the winner's); a resource whose work cannot start is taken back, so that nothing is left
 * waiting for a workflow that does not exist.
 */
export async function createOnce<T extends { requestHash: string | null }>(
  idempotencyKey: string | null,
  requestHash: string,
  steps: CreateOnceSteps<T>,
): Promise<T> {
  const { work } = steps;
  const startOrUndo = async (resource: T): Promise<T> => {
    if (!work) return resource;
    try {
      await work.start(resource);
    } catch (error) {
      throw await work.undo(resource, error);
    }
    return resource;
  };
  const replay = async (earlier: T): Promise<T> => {
    assertSameRequest(earlier, requestHash);
    return work?.awaitsStart(earlier) ? startOrUndo(earlier) : earlier;
  };
  if (idempotencyKey) {
    const earlier = await steps.findByKey(idempotencyKey);
    if (earlier) return replay(earlier);
  }
  await steps.admit();
  const created = await steps.insert();
  if (created) return startOrUndo(created);
  const winner = idempotencyKey ? await steps.findByKey(idempotencyKey) : null;
  if (!winner) throw new Error('the resource was neither inserted nor found under its Idempotency-Key');
  return replay(winner);
}
