import { execFile } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  loadVendoredDocument,
  readSource,
  sha256,
  VENDORED_DIR,
} from "../../scripts/openai-openapi/document.js";

const run = promisify(execFile);
const SCRIPT = path.resolve("scripts/refresh-openai-openapi.ts");
const COMMIT = "0123456789abcdef0123456789abcdef01234567";

type Schema = Record<string, unknown> & { properties: Record<string, Record<string, unknown>> };

/** The vendored description with changes to served shapes, a description-only edit and an unserved one. */
function changedDescription(): string {
  const document = loadVendoredDocument();
  const schemas = document.components.schemas as Record<string, Schema>;
  const completion = schemas.CreateCompletionResponse as Schema;
  completion.required = [...(completion.required as string[]), "system_fingerprint"];
  const batch = schemas.Batch as Schema;
  batch.properties.status = { ...batch.properties.status, enum: ["validating", "paused"] };
  batch.description = "Only the words changed.";
  (schemas.Model as Schema).properties.created = { type: "string" };
  (schemas.AssistantObject as Schema).properties.brand_new = { type: "string" };
  return JSON.stringify(document);
}

describe("the refresh script", () => {
  let dir: string;
  let server: Server;
  let url: string;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "openai-openapi-"));
    for (const file of ["openapi.yaml", "source.json"]) {
      copyFileSync(path.join(VENDORED_DIR, file), path.join(dir, file));
    }
    writeFileSync(path.join(dir, "new.json"), changedDescription());
    server = createServer((_request, response) => {
      response.end(readFileSync(path.join(dir, "new.json")));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/openapi.yaml`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  const refresh = (...args: string[]) =>
    run(process.execPath, ["--import", "tsx", SCRIPT, ...args, "--into", dir]);

  function expectReport(stdout: string): void {
    expect(stdout).toMatch(/CreateCompletionResponse:\n {2}~ required: \+"system_fingerprint"/);
    expect(stdout).toMatch(/Batch:\n {2}~ properties\.status\.enum: .*\+"paused"/);
    expect(stdout).toMatch(
      /Model:\n(?: {2}.*\n)* {2}~ properties\.created\.type: "integer" → "string"/,
    );
    expect(stdout).not.toContain("AssistantObject");
    expect(stdout).not.toContain("Only the words changed");
  }

  it("shows what a URL's description changes for the served shapes, and with --dry-run writes nothing", async () => {
    const before = readFileSync(path.join(dir, "source.json"), "utf8");
    const { stdout } = await refresh(url, "--dry-run");
    expectReport(stdout);
    expect(readFileSync(path.join(dir, "source.json"), "utf8")).toBe(before);
  });

  it("replaces the copy and records its commit and hash", async () => {
    const { stdout } = await refresh(path.join(dir, "new.json"), "--commit", COMMIT);
    expectReport(stdout);
    const written = readFileSync(path.join(dir, "openapi.yaml"), "utf8");
    expect(written).toBe(readFileSync(path.join(dir, "new.json"), "utf8"));
    expect(readSource(path.join(dir, "source.json"))).toMatchObject({
      commit: COMMIT,
      sha256: sha256(written),
      repository: "https://github.com/openai/openai-openapi",
    });
    const again = await refresh(path.join(dir, "new.json"), "--dry-run");
    expect(again.stdout).toContain("No change to the shapes Sibyl serves.");
  });

  it("reads the commit from a URL of the repository that names one", async () => {
    const other = "fedcba9876543210fedcba9876543210fedcba98";
    const at = url.replace("/openapi.yaml", `/openai/openai-openapi/${other}/openapi.yaml`);
    await refresh(at);
    expect(readSource(path.join(dir, "source.json")).commit).toBe(other);
  });

  it("refuses to write a file whose commit it cannot name, and anything not a description", async () => {
    await expect(refresh(path.join(dir, "new.json"))).rejects.toMatchObject({ code: 2 });
    writeFileSync(path.join(dir, "bad.json"), JSON.stringify({ hello: "world" }));
    await expect(refresh(path.join(dir, "bad.json"), "--dry-run")).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining("not an OpenAPI description"),
    });
  });
});
