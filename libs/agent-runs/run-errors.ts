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
