import { useCallback, useEffect, useState } from "react";
import { messageOf } from "../api/client";

export type Loaded<T> =
  | { state: "loading" }
  | { state: "failed"; message: string; error: unknown }
  | { state: "ready"; value: T };

/** Loads once on mount and again on `reload()`; a newer load wins over an older one. */
export function useLoad<T>(load: () => Promise<T>, deps: readonly unknown[]) {
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: "loading" });
  const [generation, setGeneration] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the caller names what `load` reads; a new generation loads again.
  const run = useCallback(load, [...deps, generation]);
  useEffect(() => {
    let current = true;
    run().then(
      (value) => current && setLoaded({ state: "ready", value }),
      (error: unknown) =>
        current && setLoaded({ state: "failed", message: messageOf(error), error }),
    );
    return () => {
      current = false;
    };
  }, [run]);
  const reload = useCallback(() => setGeneration((n) => n + 1), []);
  return [loaded, reload] as const;
}
