/**
 * The news archive on SQLite: import throughput of `sibyl news import` (the same streaming
 * importer and insert path) over 100,000 generated articles, then archive search latency over
 * forecasting-style questions, with and without an as-of cutoff. Target: p50 under 20 ms.
 */
import { createWriteStream, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { connectDatabase } from "../src/db/connect.js";
import { migrateToLatest } from "../src/db/migrate.js";
import { ArchiveSource } from "../src/research/archive/archive-source.js";
import { ArchiveStore } from "../src/research/archive/archive-store.js";
import { importArticleFile } from "../src/research/archive/import-file.js";
import { systemClock } from "../src/util/clock.js";
import { quantile } from "./stats.js";

const ARTICLES = 100_000;
const QUERIES = 300;
const WARMUP_QUERIES = 30;
const RESULTS_PER_SEARCH = 8;
const P50_TARGET_MS = 20;

const FIRST_DAY = Date.UTC(2020, 0, 1);
const LAST_DAY = Date.UTC(2025, 0, 1);

const ACTORS = [
  "Federal Reserve",
  "European Central Bank",
  "Bank of Japan",
  "OpenAI",
  "Google",
  "Tesla",
  "Apple",
  "Nvidia",
  "Microsoft",
  "Amazon",
  "Ukraine",
  "Russia",
  "China",
  "Taiwan",
  "Israel",
  "Iran",
  "India",
  "Brazil",
  "Argentina",
  "Mexico",
  "Germany",
  "France",
  "Britain",
  "Japan",
  "Congress",
  "the Senate",
  "the White House",
  "NATO",
  "the United Nations",
  "OPEC",
  "SpaceX",
  "Boeing",
  "Pfizer",
  "Moderna",
  "the WHO",
  "the IMF",
  "Saudi Arabia",
  "Turkey",
  "Nigeria",
  "South Africa",
  "Canada",
  "Australia",
  "the Supreme Court",
  "Labour",
  "the Conservatives",
];
const TOPICS = [
  "interest rates",
  "inflation",
  "unemployment",
  "recession",
  "ceasefire",
  "election",
  "tariffs",
  "sanctions",
  "oil prices",
  "chip exports",
  "artificial intelligence",
  "vaccine",
  "pandemic",
  "climate summit",
  "emissions",
  "budget deficit",
  "debt ceiling",
  "strike",
  "merger",
  "antitrust lawsuit",
  "earnings",
  "stock market",
  "bitcoin",
  "housing market",
  "wildfires",
  "hurricane",
  "drought",
  "heatwave",
  "earthquake",
  "peace talks",
  "missile test",
  "border crossing",
  "immigration bill",
  "supreme court ruling",
  "rocket launch",
  "satellite",
  "nuclear deal",
  "trade agreement",
  "currency",
  "bond yields",
  "gas supply",
  "grain exports",
];
const VERBS = [
  "announces",
  "rejects",
  "weighs",
  "delays",
  "approves",
  "warns over",
  "faces pressure on",
  "signals shift on",
  "cuts",
  "raises",
  "extends",
  "suspends",
  "backs",
  "criticises",
  "plans",
];
const COMMON = (
  "the of and to in a is that for on was with as by at from it his be an have are has this " +
  "were had which not but they their been its who or one after new also two first more some " +
  "year years said would about people time over other into than government could when last " +
  "week month officials report data analysts market expected percent million billion economy " +
  "country state president minister policy decision talks plan support increase decline " +
  "growth prices public sector agency statement according spokesperson sources meeting " +
  "quarter forecast risk risks vote votes deal deals agreement crisis security investors"
).split(" ");

/** Deterministic pseudo-random numbers, so every run measures the same archive. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function pick<T>(items: readonly T[], next: () => number): T {
  return items[Math.floor(next() * items.length)] as T;
}

/** A rare word from a large made-up vocabulary: real text has a long tail of them. */
function tailWord(next: () => number): string {
  const syllables = ["ka", "lo", "mi", "ter", "van", "dre", "sol", "pen", "ru", "gan", "tis"];
  const length = 2 + Math.floor(next() * 3);
  let word = "";
  for (let index = 0; index < length; index++) word += pick(syllables, next);
  return word;
}

function sentence(actor: string, topic: string, next: () => number): string {
  const words: string[] = [];
  const length = 12 + Math.floor(next() * 14);
  for (let index = 0; index < length; index++) {
    const roll = next();
    if (roll < 0.08) words.push(topic);
    else if (roll < 0.12) words.push(actor);
    else if (roll < 0.2) words.push(tailWord(next));
    else if (roll < 0.24) words.push(String(Math.floor(next() * 1000)));
    else words.push(pick(COMMON, next));
  }
  const text = words.join(" ");
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

function articleLine(index: number, next: () => number): string {
  const actor = pick(ACTORS, next);
  const topic = pick(TOPICS, next);
  const published = FIRST_DAY + Math.floor(next() * (LAST_DAY - FIRST_DAY));
  const sentences = Array.from({ length: 5 + Math.floor(next() * 6) }, () =>
    sentence(actor, next() < 0.7 ? topic : pick(TOPICS, next), next),
  );
  const article: Record<string, string> = {
    url: `https://news.example/${new Date(published).toISOString().slice(0, 10)}/${index}`,
    title:
      `${actor} ${pick(VERBS, next)} ${topic} ${next() < 0.5 ? `as ${pick(TOPICS, next)} looms` : ""}`.trim(),
    published_at: new Date(published).toISOString(),
    source: `Example Wire ${index % 40}`,
    summary: sentences[0] as string,
    text: sentences.join(" "),
  };
  if (next() < 0.8) {
    article.first_seen_at = new Date(published + Math.floor(next() * 48 * 3_600_000)).toISOString();
  }
  return JSON.stringify(article);
}

async function writeArticles(file: string): Promise<number> {
  const next = random(42);
  const out = createWriteStream(file);
  let bytes = 0;
  for (let index = 0; index < ARTICLES; index++) {
    const line = `${articleLine(index, next)}\n`;
    bytes += line.length;
    if (!out.write(line)) await new Promise<void>((resolve) => out.once("drain", () => resolve()));
  }
  await new Promise<void>((resolve, reject) =>
    out.end((error?: Error | null) => (error ? reject(error) : resolve())),
  );
  return bytes;
}

/** Questions the way forecasters ask them, over the archive's actors and topics. */
function questions(count: number): string[] {
  const next = random(7);
  const shapes = [
    (a: string, t: string) => `Will ${a} change its stance on ${t} before the end of the year?`,
    (a: string, t: string) => `Will the ${t} involving ${a} be resolved by June?`,
    (a: string, t: string) => `What is the probability that ${a} announces new ${t} measures?`,
    (a: string, t: string) => `${a} ${t} outlook`,
    (a: string, t: string) =>
      `Given recent reports on ${t}, will ${a} respond within three months? Answer with a probability.`,
  ];
  return Array.from({ length: count }, () =>
    pick(shapes, next)(pick(ACTORS, next), pick(TOPICS, next)),
  );
}

async function measure(
  archive: ArchiveSource,
  queries: readonly string[],
  cutoff: (index: number) => Date | null,
): Promise<{ times: number[]; empty: number }> {
  for (const query of queries.slice(0, WARMUP_QUERIES)) {
    await archive.search(query, { cutoff: null, limit: RESULTS_PER_SEARCH });
  }
  const times: number[] = [];
  let empty = 0;
  for (const [index, query] of queries.entries()) {
    const started = performance.now();
    const results = await archive.search(query, {
      cutoff: cutoff(index),
      limit: RESULTS_PER_SEARCH,
    });
    times.push(performance.now() - started);
    if (results.length === 0) empty += 1;
  }
  return { times: times.sort((a, b) => a - b), empty };
}

export interface ArchiveBenchResult {
  passed: boolean;
}

export async function benchArchive(): Promise<ArchiveBenchResult> {
  const dir = mkdtempSync(path.join(tmpdir(), "sibyl-bench-archive-"));
  const handle = connectDatabase(`sqlite:${path.join(dir, "sibyl.db")}`);
  try {
    await migrateToLatest(handle);
    const file = path.join(dir, "articles.jsonl");
    const bytes = await writeArticles(file);
    console.log(`${ARTICLES} generated articles, ${(bytes / 1e6).toFixed(0)} MB of JSON Lines`);

    const started = performance.now();
    const store = new ArchiveStore(handle.db, systemClock);
    const dating = { importedAt: systemClock.now(), firstSeen: "published" as const };
    const summary = await importArticleFile(file, store, dating, {
      rejected: (line, reason) => {
        throw new Error(`generated line ${line} rejected: ${reason}`);
      },
      progress: () => undefined,
    });
    const seconds = (performance.now() - started) / 1000;
    if (summary.imported !== ARTICLES) throw new Error(`imported ${JSON.stringify(summary)}`);
    console.log(
      `import (sibyl news import's path): ${(ARTICLES / seconds).toFixed(0)} articles/s (${seconds.toFixed(1)} s)`,
    );

    const archive = new ArchiveSource(handle.db);
    const queries = questions(QUERIES);
    const next = random(99);
    const cutoffs = queries.map(() => new Date(FIRST_DAY + next() * (LAST_DAY - FIRST_DAY)));
    console.log(`archive search, ${QUERIES} questions, top ${RESULTS_PER_SEARCH}`);
    console.log("                     p50 ms   p99 ms   max ms   no result");
    let passed = true;
    for (const [label, cutoff] of [
      ["no cutoff", () => null],
      ["as-of cutoff", (index: number) => cutoffs[index] ?? null],
    ] as const) {
      const { times, empty } = await measure(archive, queries, cutoff);
      const p50 = quantile(times, 0.5);
      passed &&= p50 < P50_TARGET_MS && empty < QUERIES / 10;
      console.log(
        `${label.padEnd(18)} ${p50.toFixed(2).padStart(8)} ${quantile(times, 0.99).toFixed(2).padStart(8)} ${(times.at(-1) ?? 0).toFixed(2).padStart(8)}   ${String(empty).padStart(9)}`,
      );
    }
    console.log(
      `target: p50 under ${P50_TARGET_MS} ms with and without a cutoff, and results found: ${passed ? "pass" : "FAIL"}`,
    );
    return { passed };
  } finally {
    await handle.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
