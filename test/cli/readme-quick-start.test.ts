import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.js";

const REPO = fileURLToPath(new URL("../../", import.meta.url));
const README = readFileSync(`${REPO}README.md`, "utf8");

/** The code block under a README heading. */
function snippetUnder(heading: string): string {
  const section = README.slice(README.indexOf(heading));
  const match = /```ts\n([\s\S]*?)```/.exec(section);
  if (!match) throw new Error(`no ts block under ${heading}`);
  return match[1] as string;
}

/**
 * Runs a module as its own Node process from the repository, so `import … from "openai"` finds
 * the installed SDK as it would in a newcomer's project.
 */
function runModule(source: string, env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--input-type=module"], {
      cwd: REPO,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    child.once("error", reject);
    child.once("close", (code) =>
      code === 0 ? resolve(stdout) : reject(new Error(`exit ${code}: ${stderr}`)),
    );
    child.stdin.end(source);
  });
}

let server: TestServer;

beforeAll(async () => {
  // The default models, as on a first run.
  server = await startTestServer();
});

afterAll(async () => {
  await server?.close();
});

describe("the README's quick start", () => {
  it("runs its openai SDK example as written: the answer it shows, then a stream that reports its cost", async () => {
    const { apiKey } = await server.createOrg("5");
    const snippet = snippetUnder("### First request with the `openai` SDK");
    expect(snippet).toContain('baseURL: "http://127.0.0.1:8080/v1"');
    const source = snippet.replace("http://127.0.0.1:8080/v1", `${server.url}/v1`);

    const printed = await runModule(source, { SIBYL_API_KEY: apiKey });

    expect(printed).toContain('<answer>{"A":0.3334,"B":0.3333,"C":0.3333}</answer>');
    const cost = /\ncost: \$(\S+)\n/.exec(printed);
    expect(cost?.[1]).toBeDefined();
    expect(Number(cost?.[1])).toBeGreaterThan(0);
    expect(printed).toContain('<answer>{"mean":1200,"standard_deviation":300}</answer>');
  });
});
