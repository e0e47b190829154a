/** The run (or its version) does not exist in that organisation. */
export class RunNotFoundError extends Error {
  constructor(runId: string) {
    super(`run ${runId} does not exist`);
    this.name = 'RunNotFoundError';
  }
}

/** The run reached a final status before its workflow got to it (a duplicate or replayed execution). */
export class RunAlreadyFinishedError extends Error {
  constructor(runId: string, status: string) {
    super(`run ${runId} already ${status}`);
    this.name = 'RunAlreadyFinishedError';
  }
}

/** The organisation's balance cannot pay the run's next model turn: the run fails with insufficient_tokens. */
export class RunCannotPayError extends Error {
  constructor(runId: string) {
    super(`run ${runId}: the balance cannot pay its next model turn`);
    this.name = 'RunCannotPayError';
  }
}

/** The answer, repaired once, still does not match the version's JSON Schema; the message is the run's error. */
export class OutputMismatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OutputMismatchError';
  }
}
