import { ActivityFailure, ApplicationFailure } from '@temporalio/workflow';

/** The most specific human-readable message of a failure chain, e.g. the provider's own error. */
export function describeFailure(failure: unknown): string {
  let current: unknown = failure;
  while (current instanceof ActivityFailure && current.cause) current = current.cause;
  if (current instanceof ApplicationFailure || current instanceof Error) return current.message || 'run failed';
  return 'run failed';
}
