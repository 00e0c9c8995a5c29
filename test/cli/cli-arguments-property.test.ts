import { writeFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { runInProcess } from "../support/cli-in-process.js";
import { TempDirs } from "../support/temp-dir.js";

const temp = new TempDirs();
afterAll(() => temp.removeAll());

/** Words and flags a hurried user types, right or wrong; serve, worker and eval run never stop. */
const WORDS = ["orgs", "create", "list", "keys", "revoke", "credits", "add", "dashboard", "link"];
const MORE_WORDS = ["news", "import", "migrate", "eval", "report", "org", "help", "Orgs", "-"];
const FLAGS = ["--name", "--org", "--usd", "--credits-usd", "--scope", "--minutes", "--port"];
const MORE_FLAGS = ["--expires-at", "--spend-limit-usd", "--no-worker", "--help", "-h", "--bogus"];
const VALUES = ["acme", "-5", "-0.5", "1e3", "0x10", "", " ", "5", "0.25", "inference", "--"];
const MORE_VALUES = ["org_missing", "2020-01-01", "=", "--name=x", "-x", "ü", "9".repeat(30)];

const token = fc.constantFrom(
  ...WORDS,
  ...MORE_WORDS,
  ...FLAGS,
  ...MORE_FLAGS,
  ...VALUES,
  ...MORE_VALUES,
);
const commandLine = fc
  .array(token, { minLength: 0, maxLength: 7 })
  .filter((argv) => !argv.includes("serve") && !argv.includes("worker"));

describe("any command line", () => {
  it("gets an answer or a sentence and a pointer to the help, never a stack trace", async () => {
    const dir = temp.make("sibyl-cli-property-");
    const config = path.join(dir, "sibyl.yaml");
    writeFileSync(config, "");
    const env = { SIBYL_DATA_DIR: dir, SIBYL_CONFIG: config };
    await fc.assert(
      fc.asyncProperty(commandLine, async (argv) => {
        const result = await runInProcess(argv, env);
        expect([0, 1, 2]).toContain(result.code);
        expect(result.stderr).not.toMatch(/\n\s+at \S/);
        expect(result.stderr).not.toContain("ERR_PARSE_ARGS");
        expect(result.stderr).not.toContain("ambiguous");
        if (result.code === 2) {
          // Without a command, the usage itself; otherwise the mistake and the help to read.
          const pointer = /\nRun "sibyl( [a-z]+)* --help" for its usage and an example\.\n$/;
          expect(result.stderr).toMatch(
            result.stderr.startsWith("Usage: sibyl <command>") ? /Commands:/ : pointer,
          );
          expect(result.stdout).toBe("");
        }
        if (result.code === 0) expect(result.stdout).not.toBe("");
      }),
      { numRuns: 250 },
    );
  }, 120_000);
});
