import { readFileSync } from "node:fs";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

setFlagsFromString("--expose-gc");
/** V8's full collection, exposed by the flag above to contexts created after it. */
const collectGarbage = runInNewContext("gc") as () => void;

/** Nanoseconds the calling thread has run on a CPU (Linux's scheduler statistics). */
function threadCpuNs(): number {
  return Number(readFileSync("/proc/thread-self/schedstat", "latin1").split(" ")[0]);
}

/**
 * The CPU milliseconds this thread spent while `work` ran: with the server in the test's own
 * process, what a request cost it, which a busy machine does not stretch as it stretches wall
 * time (the thread waiting for a core is not counted).
 */
export async function threadCpuMsOf(work: () => Promise<void>): Promise<number> {
  const started = threadCpuNs();
  await work();
  return (threadCpuNs() - started) / 1e6;
}

/**
 * The longest the event loop went between two turns while `work` ran, in CPU milliseconds of
 * the main thread rather than wall time: on a machine shared with other work a thread waits for
 * a core now and then, which stretches wall time but not what the loop itself computed, and
 * V8's helper threads (parallel garbage collection) do not hold the loop. A 1 ms timer marks
 * each turn; the main thread's CPU between two of its runs is the longest stretch the loop was
 * held. A full collection runs first, so garbage left by earlier work (other tests in the same
 * process) is not collected inside the window and charged to `work`.
 */
export async function longestLoopHoldMs(work: () => Promise<void>): Promise<number> {
  collectGarbage();
  let longest = 0;
  let last = threadCpuNs();
  let ticking = true;
  const tick = () => {
    const now = threadCpuNs();
    longest = Math.max(longest, (now - last) / 1e6);
    last = now;
    if (ticking) timer = setTimeout(tick, 1);
  };
  let timer = setTimeout(tick, 1);
  try {
    await work();
  } finally {
    ticking = false;
    clearTimeout(timer);
    tick();
  }
  return longest;
}
