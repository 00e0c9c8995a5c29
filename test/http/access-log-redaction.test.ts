import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.js";

interface AccessLine {
  msg: string;
  method: string;
  url: string;
  status: number;
}

describe("access log", () => {
  const written: string[] = [];
  let server: TestServer;
  let apiKey: string;

  beforeAll(async () => {
    server = await startTestServer({
      logger: { level: "info", stream: { write: (line: string) => written.push(line) } },
    });
    ({ apiKey } = await server.createOrg());
  });
  afterAll(async () => {
    await server?.close();
  });

  /** The access line for one request, once the server has written it (after the response). */
  async function accessLineAfter(path: string, headers: Record<string, string> = {}) {
    const before = written.length;
    const response = await fetch(`${server.url}${path}`, { headers });
    await response.arrayBuffer();
    const deadline = Date.now() + 2_000;
    for (;;) {
      const line = written
        .slice(before)
        .map((text) => JSON.parse(text) as AccessLine)
        .find((entry) => entry.msg === "request completed");
      if (line) return { line, status: response.status };
      if (Date.now() > deadline) throw new Error(`no access line for ${path}`);
      await sleep(10);
    }
  }

  it("hides a key sent in the query string but keeps the path", async () => {
    const { line, status } = await accessLineAfter(`/v1/models?api_key=${apiKey}`);
    expect(status).toBe(401);
    expect(line).toMatchObject({ method: "GET", status: 401 });
    expect(line.url).toBe("/v1/models?api_key=[REDACTED]");
    expect(written.join("\n")).not.toContain(apiKey);
  });

  it("hides every parameter named like a secret and keeps the others", async () => {
    const { line } = await accessLineAfter(
      "/v1/files?purpose=batch&access_token=t0ken&Password=hunter2&limit=5&client%5Fsecret=s3cret",
      { authorization: `Bearer ${apiKey}` },
    );
    expect(line.url).toBe(
      "/v1/files?purpose=batch&access_token=[REDACTED]&Password=[REDACTED]&limit=5&client%5Fsecret=[REDACTED]",
    );
    for (const secret of ["t0ken", "hunter2", "s3cret"]) {
      expect(written.join("\n")).not.toContain(secret);
    }
  });

  it("hides a key wherever it appears in the URL, even percent-encoded", async () => {
    const secretPart = apiKey.slice(3);
    const { line } = await accessLineAfter(
      `/v1/files/${apiKey}/content?q=sk%5F${secretPart}&after=disk_usage`,
      { authorization: `Bearer ${apiKey}` },
    );
    expect(line).toMatchObject({ status: 404 });
    expect(line.url).toBe("/v1/files/[REDACTED]/content?q=[REDACTED]&after=disk_usage");
    expect(written.join("\n")).not.toContain(secretPart);
  });
});
