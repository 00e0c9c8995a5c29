import { afterAll, beforeAll, describe, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/postgres.js";
import { killMidBatchAndRecover } from "./support/crash-scenario.js";

describe("batches survive kill -9 (PostgreSQL)", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.drop();
  });

  it("finishes with every line exactly once after a restart", async () => {
    await killMidBatchAndRecover(database.url);
  }, 120_000);
});
