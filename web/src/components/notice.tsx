import type { ReactNode } from "react";

export type Tone = "info" | "success" | "error";

/**
 * A message that screen readers announce when it appears or changes. The live region stays in
 * the page while empty: regions added together with their text are often not read out.
 */
export function LiveRegion({ tone = "info", children }: { tone?: Tone; children?: ReactNode }) {
  return (
    <div
      className={children ? `notice notice-${tone}` : "notice-empty"}
      role={tone === "error" ? "alert" : "status"}
    >
      {children}
    </div>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p className="muted" role="status">
      Loading {what}…
    </p>
  );
}
