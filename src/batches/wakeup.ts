/** A reusable signal: `wait` resolves on the next `wake` or after the timeout, whichever is first. */
export class Wakeup {
  private waiters: (() => void)[] = [];

  wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }

  wait(timeoutMs: number): Promise<void> {
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
