import { setImmediate as nextTurn } from "node:timers/promises";
import type { Files } from "../files/files-service.js";
import { readLines } from "../files/lines.js";
import { MAX_LINE_BYTES } from "../files/upload-inspector.js";
import { LineValidator } from "./line-validator.js";
import { MAX_BATCH_LINES } from "./validate-batch.js";

/** What a batch's lines hold at worst, each as its completion would hold it, in nano-dollars. */
export interface BatchWorstCase {
  lines: number;
  /** The hold of the dearest line. */
  dearestNanos: number;
  /** The holds of all lines together. */
  totalNanos: number;
}

export interface WorstCaseDeps {
  files: Files;
  knownModel(id: string): boolean;
  /** The hold a line's request would take (at the batch price); 0 for one refused before it. */
  lineHoldNanos(organizationId: string, body: Record<string, unknown>): number;
}

/** Lines checked between turns of the event loop, so a large file never holds it long. */
const LINES_PER_TURN = 100;

/**
 * Reads a batch's input file as validation will, and sums what its lines would hold. Null when
 * the file will not pass validation (missing, of another purpose, too long, or with any invalid
 * line): such a batch fails whole without running a line, so it needs no credits.
 */
export async function batchWorstCase(
  deps: WorstCaseDeps,
  organizationId: string,
  inputFileId: string,
): Promise<BatchWorstCase | null> {
  const opened = await deps.files.open(organizationId, inputFileId);
  if (!opened) return null;
  if (opened.file.purpose !== "batch") {
    opened.body.destroy();
    return null;
  }
  const validator = new LineValidator(deps.knownModel);
  const worst: BatchWorstCase = { lines: 0, dearestNanos: 0, totalNanos: 0 };
  try {
    for await (const line of readLines(opened.body, MAX_LINE_BYTES)) {
      if (line.text !== null && line.text.trim() === "") continue;
      worst.lines += 1;
      if (worst.lines > MAX_BATCH_LINES) return null;
      const verdict = validator.check(line.number, line.text);
      if (!verdict.valid) return null;
      const hold = deps.lineHoldNanos(organizationId, verdict.body);
      worst.dearestNanos = Math.max(worst.dearestNanos, hold);
      worst.totalNanos += hold;
      if (worst.lines % LINES_PER_TURN === 0) await nextTurn();
    }
  } finally {
    opened.body.destroy();
  }
  return worst.lines === 0 ? null : worst;
}
