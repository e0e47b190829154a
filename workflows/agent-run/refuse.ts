import { ApplicationFailure } from '@temporalio/workflow';

/** An Update's refusal: the failure type the API maps to its answer, and the message the caller is told. */
export function refuse(type: string, message: string): never {
  throw ApplicationFailure.create({ type, message, nonRetryable: true });
}
