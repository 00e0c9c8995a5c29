/**
 * The time a synchronous call held the event loop's thread, measured on a shared machine without
 * a per-thread CPU clock (Node 20 has none). Process CPU time also counts V8's compiler and GC
 * threads working on the other core meanwhile; wall time also counts waits for a core taken by
 * other processes. The thread's own time is at most each, so their minimum bounds it from above
 * while leaving out both kinds of noise.
 */
export interface CallTime {
  /** Upper bound on the calling thread's time: min(process CPU, wall), in ms. */
  own: number;
  wall: number;
}

export function timeCall(call: () => void): CallTime {
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  call();
  const wall = performance.now() - started;
  const used = process.cpuUsage(cpuBefore);
  return { own: Math.min((used.user + used.system) / 1000, wall), wall };
}
