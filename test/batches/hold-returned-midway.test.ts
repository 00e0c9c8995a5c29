import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../support/polling.js";
import { createTestDatabase, type TestDatabase } from "../support/postgres.js";
import {
  attemptsOf,
  expectCompletedAndBilledOnce,
  type LineScene,
  startLineScene,
} from "./support/line-scene.js";

const USAGE = { prompt_tokens: 1000, completion_tokens: 500 };

/**
 * A worker that stalls past its heartbeat has its holds returned by another process's sweep,
 * though its line lease still stands. Its answer, when it comes, finds no hold to charge: it must
 * not be recorded free of charge, and the line must still be answered and charged once.
 */
describe.each(["SQLite", "PostgreSQL"] as const)(
  "a batch line whose hold the %s sweep returns while it runs",
  (dialect) => {
    let database: TestDatabase | null = null;
    let scene: LineScene;

    beforeAll(async () => {
      if (dialect === "PostgreSQL") database = await createTestDatabase();
      scene = await startLineScene(database?.url, { retryBaseMs: 10, maxAttempts: 3 });
    });

    afterAll(async () => {
      await scene?.close();
      await database?.drop();
    });

    it("records nothing uncharged, runs the line again, and charges it once", async () => {
      let answer: () => void = () => undefined;
      scene.upstream.enqueue({ usage: USAGE, gate: new Promise((resolve) => (answer = resolve)) });
      const before = scene.upstream.requests.length;
      const { openai, org, batchId } = await scene.submit("stalled");
      const reference = `${batchId}:stalled`;
      const ledger = scene.server.services.ledger;
      await eventually(async () =>
        (await ledger.held(org.organizationId)).length === 1 ? true : undefined,
      );
      await eventually(async () =>
        scene.upstream.requests.length - before === 1 ? true : undefined,
      );

      await ledger.releaseByReference(org.organizationId, [reference]);
      answer();

      await expectCompletedAndBilledOnce(scene.server, openai, org, batchId, "stalled");
      expect(await attemptsOf(scene.server, batchId)).toBe(2);
      expect(scene.upstream.requests.length - before).toBe(2);
      expect(scene.warnings.map((warning) => warning.message)).toContain(
        "a batch line's hold was returned before its charge; the line runs again",
      );
    });
  },
);
