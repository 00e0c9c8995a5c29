import { describe, it } from "vitest";
import { killMidBatchAndRecover } from "./support/crash-scenario.js";

describe("batches survive kill -9 (SQLite)", () => {
  it("finishes with every line exactly once after a restart", async () => {
    await killMidBatchAndRecover(null);
  }, 120_000);
});
