import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ArchiveStore } from "../../../src/research/archive/archive-store.js";
import { importArticleFile } from "../../../src/research/archive/import-file.js";
import { upstreamBody } from "../../completions/support/sibyl-types.js";
import { MODEL, type ResearchEnv, startResearchEnv } from "../support/env.js";
import { reportOf } from "../support/report.js";
import { auditDocuments } from "./audit-classes.js";
import { type CorpusDocument, CUTOFF } from "./corpus.js";

const BATCH = 40;
/** The day after most documents came out, before the cutoff: lines are first seen then. */
const IMPORTED_AT = Date.parse("2026-05-02T00:00:00Z");
const documents = auditDocuments();

/** A `sibyl news import` line for a corpus document, with a word only its batch holds. */
function importLine(document: CorpusDocument, batchWord: string): string {
  const { result } = document;
  return JSON.stringify({
    url: result.url,
    // An import needs a title: where the corpus shows the address instead, so does the line.
    title: result.title ?? result.url,
    source: result.source,
    published_at: result.publishedAt?.toISOString(),
    text: `${result.snippet ?? result.text} ${batchWord}`,
  });
}

describe("the second audit's classes imported with `sibyl news import`", () => {
  let env: ResearchEnv;
  let apiKey: string;
  let dir: string;

  beforeAll(async () => {
    env = await startResearchEnv({
      research: {
        sources: { news_search: { provider: "archive", max_results: 50 } },
        cache_seconds: 0,
        context_tokens: 30_000,
      },
    });
    apiKey = (await env.org("100")).apiKey;
    dir = mkdtempSync(join(tmpdir(), "sibyl-audit-import-"));
    const file = join(dir, "articles.jsonl");
    const lines = documents.map((document, index) =>
      importLine(document, `Zqbatch${Math.floor(index / BATCH)}`),
    );
    writeFileSync(file, `${lines.join("\n")}\n`);
    const rejected: string[] = [];
    const summary = await importArticleFile(
      file,
      new ArchiveStore(env.services.database.db, env.services.clock),
      { importedAt: IMPORTED_AT, firstSeen: "imported" },
      { rejected: (line, reason) => rejected.push(`${line}: ${reason}`), progress() {} },
    );
    expect(rejected).toEqual([]);
    expect(summary.imported).toBe(documents.length);
  });
  afterAll(async () => {
    await env?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("gives the model no leak and every control, as the prompt it received shows", async () => {
    const wrong: string[] = [];
    for (let start = 0; start < documents.length; start += BATCH) {
      env.reset();
      const response = await env.client(apiKey).chat.completions.create({
        model: MODEL,
        messages: [{ role: "user", content: `Zqbatch${start / BATCH}` }],
        research: true,
        prediction_date: CUTOFF.toISOString(),
      } as OpenAI.ChatCompletionCreateParamsNonStreaming);
      const messages = upstreamBody(env.fake.requests.at(-1)?.body).messages ?? [];
      const prompt = messages.map((message) => message.content ?? "").join("\n");
      const report = reportOf(response);
      for (const document of documents.slice(start, start + BATCH)) {
        const shown = prompt.includes(document.marker);
        if (shown !== (document.expect === "keep")) {
          wrong.push(`${document.expect}: ${document.id}`);
        }
        const listed = report.sources.find((source) => source.url === document.result.url);
        expect(listed !== undefined, document.id).toBe(shown);
        if (listed) {
          expect(listed).toMatchObject({ provider: "archive", trust: "untrusted" });
          // First seen at the import, or when it came out if that was later.
          const published = document.result.publishedAt?.getTime() ?? 0;
          const firstSeen = new Date(Math.max(published, IMPORTED_AT)).toISOString();
          expect(listed.first_seen_at).toBe(firstSeen);
        }
      }
    }
    expect(wrong).toEqual([]);
  });
});
