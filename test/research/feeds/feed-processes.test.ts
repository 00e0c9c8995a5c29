import type { ChildProcess } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectDatabase } from "../../../src/db/connect.js";
import { completion, spawnCli } from "../../support/cli.js";
import { TempDirs } from "../../support/temp-dir.js";
import { FeedServer } from "./feed-server.js";

const temp = new TempDirs();
const server = new FeedServer();
const children: ChildProcess[] = [];

beforeAll(async () => {
  await server.start();
  server.routes.set("/rss", {
    body: `<?xml version="1.0"?><rss version="2.0"><channel><title>Loop News</title>
      <link>https://loop.example/</link><description>x</description>
      <item><title>Lighthouse restored</title><link>https://loop.example/lighthouse</link>
      <pubDate>Fri, 01 Mar 2024 12:00:00 GMT</pubDate></item></channel></rss>`,
  });
  server.routes.set("/broken", { status: 500, body: "down" });
});

afterAll(async () => {
  // A failed test leaves its process running.
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  await server.stop();
  temp.removeAll();
});

/** Waits for the archive in `dir` to hold `url`; the process migrates the file first. */
async function archived(dir: string, url: string): Promise<boolean> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const handle = connectDatabase(`sqlite:${path.join(dir, "sibyl.db")}`);
    try {
      const rows = await sql<{ n: number }>`
        select count(*) as n from news_articles where url = ${url}`.execute(handle.kysely);
      if (Number(rows.rows[0]?.n) === 1) return true;
    } catch {
      // Not migrated yet.
    } finally {
      await handle.close();
    }
    await sleep(200);
  }
  return false;
}

describe.each([
  { command: ["worker"], name: "sibyl worker" },
  { command: ["serve", "--port", "0"], name: "sibyl serve" },
])("$name", ({ command }) => {
  it("polls the configured feeds into the archive, logs a failing one, and stops on SIGTERM", async () => {
    const dir = temp.make("sibyl-feed-process-");
    writeFileSync(
      path.join(dir, "sibyl.yaml"),
      `news:\n  feeds:\n    - url: ${server.url("/broken")}\n    - url: ${server.url("/rss")}\n`,
    );
    const child = spawnCli(command, { cwd: dir });
    children.push(child);
    let output = "";
    const collect = (chunk: Buffer) => {
      output += chunk.toString("utf8");
    };
    child.stdout?.on("data", collect);
    child.stderr?.on("data", collect);
    const finished = completion(child);
    expect(await archived(dir, "https://loop.example/lighthouse")).toBe(true);
    while (!output.includes("news feed poll failed")) await sleep(50);
    child.kill("SIGTERM");
    const result = await finished;
    expect(result.code).toBe(0);
    const warning = output.split("\n").find((line) => line.includes("news feed poll failed"));
    expect(JSON.parse(warning ?? "{}")).toMatchObject({
      msg: "news feed poll failed",
      feed: server.url("/broken"),
      err: { message: "HTTP 500" },
    });
  });
});
