import { spawn } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { setImmediate as nextTurn } from "node:timers/promises";
import { fileURLToPath, pathToFileURL } from "node:url";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { turnBatchedLog } from "../../src/http/log-stream.js";

const LOG_STREAM = fileURLToPath(new URL("../../src/http/log-stream.ts", import.meta.url));
const TSX_LOADER = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;

describe("turn-batched log", () => {
  let dir: string;
  let file: string;
  let fd: number;

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), "sibyl-log-stream-"));
    file = path.join(dir, "sibyl.log");
    fd = openSync(file, "a");
  });
  afterEach(() => {
    closeSync(fd);
    rmSync(dir, { recursive: true, force: true });
  });

  const written = () => readFileSync(file, "utf8");

  it("writes one turn's lines together when the turn ends", async () => {
    const log = turnBatchedLog(fd);
    log.write('{"n":1}\n');
    log.write('{"n":2}\n');
    log.write('{"n":3}\n');
    expect(written()).toBe("");
    await nextTurn();
    expect(written()).toBe('{"n":1}\n{"n":2}\n{"n":3}\n');
  });

  it("writes at once what grows past its bound within one turn", async () => {
    const log = turnBatchedLog(fd);
    const line = `${"x".repeat(999)}\n`;
    for (let count = 0; count < 70; count++) log.write(line);
    expect(written().length).toBeGreaterThanOrEqual(64 * 1024);
    expect(written().length % line.length).toBe(0);
    await nextTurn();
    expect(written()).toBe(line.repeat(70));
  });

  it("keeps every line, whole and in order, however the turns fall", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(fc.string({ maxLength: 3000 }), { maxLength: 40 }), { maxLength: 6 }),
        async (turns) => {
          const before = written().length;
          const log = turnBatchedLog(fd);
          const expected = turns.flat().map((text) => `${JSON.stringify(text)}\n`);
          for (const turn of turns) {
            for (const text of turn) log.write(`${JSON.stringify(text)}\n`);
            await nextTurn();
          }
          expect(written().slice(before)).toBe(expected.join(""));
        },
      ),
      { numRuns: 60 },
    );
  });

  it("writes the lines still held when the process exits", async () => {
    // Lines written in the same turn as process.exit(): no turn ends after them.
    const script = [
      `const { standardOutputLog } = await import(${JSON.stringify(pathToFileURL(LOG_STREAM).href)});`,
      "const log = standardOutputLog();",
      'for (let n = 0; n < 5; n++) log.write("line " + n + "\\n");',
      "process.exit(0);",
    ].join("\n");
    const child = spawn(
      process.execPath,
      ["--import", TSX_LOADER, "--input-type=module", "-e", script],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
    });
    const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
    expect(code).toBe(0);
    expect(stdout).toBe("line 0\nline 1\nline 2\nline 3\nline 4\n");
  });
});
