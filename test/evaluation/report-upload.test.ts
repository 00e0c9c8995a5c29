import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BatchServer, startBatchServer } from "../batches/support/batch-server.js";
import { request } from "../support/http.js";
import type { TestOrg } from "../support/server.js";
import { evalRun, fixture, readSummary, tempDir } from "./support/backtest-cli.js";

let server: BatchServer;
let org: TestOrg;

beforeAll(async () => {
  server = await startBatchServer({
    config: { models: [{ id: "sibyl-baseline", provider: "baseline" }] },
  });
  ({ org } = await server.client("1"));
});
afterAll(async () => {
  await server.close();
});

function backtestAt(baseUrl: string, out: string, ...flags: string[]) {
  return evalRun(
    {
      questions: fixture("questions.jsonl"),
      models: ["sibyl-baseline"],
      baseUrl,
      out,
      flags,
    },
    org.apiKey,
  );
}

async function fileText(
  id: string,
  apiKey = org.apiKey,
): Promise<{ status: number; text: string }> {
  const response = await fetch(`${server.url}/v1/files/${id}/content`, {
    headers: { authorization: `Bearer ${apiKey}` },
  });
  return { status: response.status, text: await response.text() };
}

async function evaluationFiles(): Promise<{ id: string; filename: string }[]> {
  const listed = await request(server.url, "/v1/files?purpose=evaluation", { apiKey: org.apiKey });
  return (listed.body as { data: { id: string; filename: string }[] }).data;
}

/** Forwards to the server, but answers uploads with purpose `evaluation` as an older server would. */
async function startServerWithoutEvaluations(): Promise<{ url: string; close(): Promise<void> }> {
  const proxy: Server = createServer(async (incoming, outgoing) => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    if (body.includes('name="purpose"\r\n\r\nevaluation')) {
      outgoing.writeHead(400, { "content-type": "application/json" });
      outgoing.end(
        JSON.stringify({
          error: { message: "Invalid purpose 'evaluation'.", type: "invalid_request_error" },
        }),
      );
      return;
    }
    // The key, and the body's type (its multipart boundary); fetch sets the rest itself.
    const headers = Object.fromEntries(
      ["authorization", "content-type"].flatMap((name) => {
        const value = incoming.headers[name];
        return typeof value === "string" ? [[name, value]] : [];
      }),
    );
    const answer = await fetch(`${server.url}${incoming.url}`, {
      method: incoming.method ?? "GET",
      headers,
      ...(body.length > 0 ? { body } : {}),
    });
    outgoing.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "" });
    outgoing.end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  const { port } = proxy.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => proxy.close(() => resolve())),
  };
}

describe("sibyl eval run keeps its report on the server", () => {
  it("uploads the summary, report and plot as evaluation files of the key's organization", async () => {
    const out = path.join(tempDir(), "kept");
    const run = await backtestAt(server.url, out);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toContain("not kept on the server");
    const printed = JSON.parse(run.stdout) as { evaluation_file_id: string };
    expect(printed.evaluation_file_id).toMatch(/^file-/);

    const kept = JSON.parse((await fileText(printed.evaluation_file_id)).text) as {
      report_files: { report_html: string; calibration_svg: string };
    };
    const { report_files: reportFiles, ...summary } = kept;
    expect(summary).toEqual(readSummary(out));
    expect((await fileText(reportFiles.report_html)).text).toBe(
      readFileSync(path.join(out, "report.html"), "utf8"),
    );
    expect((await fileText(reportFiles.calibration_svg)).text).toBe(
      readFileSync(path.join(out, "calibration.svg"), "utf8"),
    );
    expect((await evaluationFiles()).map((file) => file.filename)).toEqual([
      "summary.json",
      "calibration.svg",
      "report.html",
    ]);

    const stranger = await server.createOrg("1");
    expect((await fileText(printed.evaluation_file_id, stranger.apiKey)).status).toBe(404);
  });

  it("uploads nothing with --no-upload", async () => {
    const before = (await evaluationFiles()).length;
    const out = path.join(tempDir(), "local");
    const run = await backtestAt(server.url, out, "--no-upload");
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ evaluation_file_id: null });
    expect(await evaluationFiles()).toHaveLength(before);
  });

  it("warns and still succeeds against a server that does not keep evaluations", async () => {
    const older = await startServerWithoutEvaluations();
    try {
      const out = path.join(tempDir(), "older");
      const run = await backtestAt(older.url, out);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toMatch(
        /eval: warning: the report was not kept on the server \(.*400 Invalid purpose 'evaluation'/,
      );
      expect(run.stderr).toContain("--no-upload skips this step");
      expect(JSON.parse(run.stdout)).toMatchObject({ evaluation_file_id: null });
      expect(readSummary(out).models["sibyl-baseline"]?.n).toBeGreaterThan(0);
    } finally {
      await older.close();
    }
  });
});
