/**
 * A reusable signal: `wait` resolves on the next `wake` or after the timeout, whichever is first.
 * A wake while nobody waits is kept for the next `wait`, so a signal that arrives while its
 * listener is busy (an announcement during a supervision pass) is not lost until the next poll.
 */
export class Wakeup {
  private waiters: (() => void)[] = [];
  private pending = false;

  wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    this.pending = waiters.length === 0;
    for (const resolve of waiters) resolve();
  }

  wait(timeoutMs: number): Promise<void> {
    if (this.pending) {
      this.pending = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(done, timeoutMs);
      const waiters = this.waiters;
      function done() {
        clearTimeout(timer);
        const index = waiters.indexOf(done);
        if (index !== -1) waiters.splice(index, 1);
        resolve();
      }
      this.waiters.push(done);
    });
  }
}
