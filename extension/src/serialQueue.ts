// Runs async jobs one at a time, in order, and coalesces bursts: while a job is waiting to run, further
// requests join it instead of queueing another. Restarts go through this so that a settings change, an
// interpreter change and a click on "Restart" never start two servers at once. No `vscode` import.

export class SerialQueue {
  private tail: Promise<void> = Promise.resolve();
  private pending: Promise<void> | undefined;

  /** Schedules `job` after the running one; if one is already waiting to start, returns that one instead. */
  request(job: () => Promise<void>): Promise<void> {
    if (this.pending) return this.pending;
    const run = this.tail.then(async () => {
      this.pending = undefined;
      await job();
    });
    this.pending = run;
    // Keep the chain alive after a failure; the caller still sees the rejection through `run`.
    this.tail = run.catch(() => undefined);
    return run;
  }

  /** Resolves once every job scheduled so far has finished. */
  idle(): Promise<void> {
    return this.tail;
  }
}
