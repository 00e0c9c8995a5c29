import type { SkippedCounts } from "../types.js";

/** How many reasons for unsupported questions a set keeps to show: a few make the point. */
const MAX_NOTES = 5;

/** What a question-set parser left out, counted by kind, with the first reasons kept as notes. */
export class SkipTally {
  readonly skipped: SkippedCounts = {
    combination: 0,
    combination_resolutions: 0,
    unsupported: 0,
    over_limit: 0,
  };
  readonly notes: string[] = [];

  unsupported(reason: string): void {
    this.skipped.unsupported += 1;
    if (this.notes.length < MAX_NOTES) this.notes.push(reason);
  }
}
