export type Release = () => void;

/** FIFO-fair async mutex guarding the single PGlite session. */
export class SessionLock {
  private held = false;
  private readonly waiters: Array<() => void> = [];

  get waiting(): number {
    return this.waiters.length;
  }

  acquire(): Promise<Release> {
    return new Promise((resolve) => {
      const grant = (): void => {
        let released = false;
        resolve(() => {
          if (released) return;
          released = true;
          this.handOff();
        });
      };
      if (this.held) {
        this.waiters.push(grant);
      } else {
        this.held = true;
        grant();
      }
    });
  }

  private handOff(): void {
    const next = this.waiters.shift();
    if (next) next();
    else this.held = false;
  }
}
