import { describe, expect, it } from "vitest";
import { Progress } from "../../src/evaluation/run/progress.js";

describe("progress on stderr", () => {
  it("redraws one bar on a terminal", () => {
    const written: string[] = [];
    const progress = new Progress({
      tty: true,
      write: (t) => written.push(t),
      line: () => undefined,
    });
    progress.spent(0.0123);
    progress.update("m", { total: 4, done: 1, failed: 1, status: "in_progress" });
    progress.update("m", { total: 4, done: 4, failed: 0, status: "completed" });
    progress.finish();
    expect(written[0]).toBe(
      `\r\x1b[2K[${"█".repeat(12)}${"░".repeat(12)}] 1/4 done · 1 failed · $0.0123 spent · m in_progress`,
    );
    expect(written.at(-2)).toContain(`[${"█".repeat(24)}] 4/4 done · 0 failed`);
    expect(written.at(-1)).toBe("\n");
  });

  it("writes plain lines elsewhere, not one per poll", () => {
    const lines: string[] = [];
    const progress = new Progress({
      tty: false,
      write: () => undefined,
      line: (t) => lines.push(t),
    });
    progress.update("a", { total: 2, done: 0, failed: 0, status: "validating" });
    progress.update("a", { total: 2, done: 1, failed: 0, status: "in_progress" });
    progress.update("b", { total: 2, done: 1, failed: 0, status: "in_progress" });
    progress.finish();
    expect(lines).toEqual([
      "eval: 0/2 done · 0 failed · a validating",
      "eval: 2/4 done · 0 failed · a in_progress, b in_progress",
    ]);
  });
});
