import net from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.js";

interface LogLine {
  level: number;
  msg: string;
  status?: number;
  url?: string;
}

/*
 * A client that resets its connection while its body is arriving is the client's doing: Node
 * reports it as ECONNRESET, the code of a lost database connection too, which had it logged as
 * the database being away (a warning) and counted as a 503.
 */
describe("a client that resets mid-body", () => {
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

  async function resetMidBody(path: string, contentType: string): Promise<LogLine[]> {
    const before = written.length;
    const { hostname, port } = new URL(server.url);
    const socket = net.connect(Number(port), hostname);
    await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${apiKey}\r\n` +
        `Content-Type: ${contentType}\r\nContent-Length: 100000\r\n\r\n{"model": "sibyl-baseline", `,
    );
    await sleep(100);
    socket.resetAndDestroy();
    const deadline = Date.now() + 3_000;
    for (;;) {
      const lines = written.slice(before).map((text) => JSON.parse(text) as LogLine);
      if (lines.some((line) => line.msg === "request completed")) return lines;
      if (Date.now() > deadline)
        throw new Error(`no access line: ${JSON.stringify(written.slice(before))}`);
      await sleep(10);
    }
  }

  it.each([
    ["/v1/chat/completions", "application/json"],
    ["/v1/responses", "application/json"],
    ["/v1/files", "multipart/form-data; boundary=b0undary"],
  ])("on %s is a 499 in the access log and metrics, with no warning", async (path, type) => {
    const lines = await resetMidBody(path, type);
    const access = lines.find((line) => line.msg === "request completed");
    expect(access).toMatchObject({ status: 499, url: path });
    expect(lines.filter((line) => line.level >= 40)).toEqual([]);
    expect(JSON.stringify(lines)).not.toContain("database_unavailable");
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(metrics).toMatch(/sibyl_http_requests_total\{[^}]*status="499"[^}]*\} [1-9]/);
    expect(metrics).not.toMatch(/sibyl_http_requests_total\{[^}]*status="503"/);
  });
});
