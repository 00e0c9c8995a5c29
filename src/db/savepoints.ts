/**
 * Nested transactions as savepoints, one at a time per scope: two savepoints opened side by side
 * on one connection would interleave, and a rollback of one would undo the other's writes.
 */
export function savepointRunner(
  depth: number,
  execute: (statement: string) => Promise<unknown>,
): <T>(work: () => Promise<T>) => Promise<T> {
  const name = `nested_${depth}`;
  let previous: Promise<unknown> = Promise.resolve();
  return <T>(work: () => Promise<T>) => {
    const run = previous.then(async () => {
      await execute(`savepoint ${name}`);
      try {
        const value = await work();
        await execute(`release savepoint ${name}`);
        return value;
      } catch (error) {
        await execute(`rollback to savepoint ${name}`);
        await execute(`release savepoint ${name}`);
        throw error;
      }
    });
    previous = run.catch(() => undefined);
    return run;
  };
}
