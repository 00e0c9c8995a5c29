/**
 * Listeners on a long-lived AbortSignal, such as the one a keep-alive connection gives every
 * request it carries (http/sse.ts): each signal gets one EventTarget listener, and the calls made
 * under it join and leave a set. Adding and removing an EventTarget listener per call costs
 * several microseconds; a set costs next to nothing.
 */
const listenersBySignal = new WeakMap<AbortSignal, Set<() => void>>();

/**
 * Runs `listener` once when `signal` aborts; the returned function stops listening. A signal that
 * has already aborted will not call it: check `signal.aborted` first.
 */
export function whenAborted(signal: AbortSignal, listener: () => void): () => void {
  let listeners = listenersBySignal.get(signal);
  if (!listeners) {
    const own = new Set<() => void>();
    listeners = own;
    listenersBySignal.set(signal, own);
    signal.addEventListener(
      "abort",
      () => {
        for (const each of own) each();
        own.clear();
      },
      { once: true },
    );
  }
  listeners.add(listener);
  const joined = listeners;
  return () => {
    joined.delete(listener);
  };
}
