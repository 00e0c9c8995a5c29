import { useCallback, useEffect, useMemo, useState } from "react";
import { messageOf } from "../api/client";

export type Loaded<T> =
  | { state: "loading" }
  | { state: "failed"; message: string; error: unknown }
  | { state: "ready"; value: T };

const LOADING = { state: "loading" } as const;

export interface LoadOptions {
  /**
   * Keep showing what was loaded for the previous deps until the new load lands: for deps that
   * only extend what is shown (one more page of a list), never for ones that replace it.
   */
  extends?: boolean;
}

/**
 * Loads once on mount, again when `deps` change and on `reload()`; a newer load wins over an
 * older one. While `deps` are new it says loading, so nothing loaded for other deps (another page,
 * another filter) is ever shown as theirs; a reload keeps showing what it replaces until it lands.
 */
export function useLoad<T>(
  load: () => Promise<T>,
  deps: readonly unknown[],
  options: LoadOptions = {},
) {
  // A new object whenever the deps change: what was loaded is shown only for the deps it was for.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the identity of the deps is the point.
  const subject = useMemo(() => ({}), deps);
  const [loaded, setLoaded] = useState<{ subject: object; value: Loaded<T> }>({
    subject,
    value: LOADING,
  });
  const [generation, setGeneration] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the caller names what `load` reads; a new generation loads again.
  const run = useCallback(load, [...deps, generation]);
  useEffect(() => {
    let current = true;
    run().then(
      (value) => current && setLoaded({ subject, value: { state: "ready", value } }),
      (error: unknown) =>
        current &&
        setLoaded({ subject, value: { state: "failed", message: messageOf(error), error } }),
    );
    return () => {
      current = false;
    };
  }, [run, subject]);
  const reload = useCallback(() => setGeneration((n) => n + 1), []);
  const current = options.extends || loaded.subject === subject;
  return [current ? loaded.value : LOADING, reload] as const;
}
