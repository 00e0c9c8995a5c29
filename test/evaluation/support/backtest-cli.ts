import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { runCli } from "../../../src/cli/run.js";
import type { Summary } from "../../../src/evaluation/summary.js";

export const fixture = (name: string) => path.join(import.meta.dirname, "..", "fixtures", name);

export function tempDir(): string {
  return mkdtempSync(path.join(tmpdir(), "sibyl-eval-"));
}

export interface CapturedRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** `sibyl ARGS` in this process, with the API key in the environment as an operator gives it. */
export async function sibyl(args: string[], apiKey: string, cwd: string): Promise<CapturedRun> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, {
    env: { SIBYL_API_KEY: apiKey, SIBYL_DATA_DIR: cwd },
    stdout: (line) => out.push(line),
    stderr: (line) => err.push(line),
  });
  return { code, stdout: out.join("\n"), stderr: err.join("\n") };
}

export interface EvalRunOptions {
  questions: string;
  resolutions?: string;
  models: readonly string[];
  baseUrl: string;
  out: string;
  /** Flags after the common ones, as typed on the command line. */
  flags?: string[];
}

/** The arguments of `sibyl eval run` against a test server, polling every 50 ms. */
export function evalRunArgs(options: EvalRunOptions): string[] {
  return [
    "eval",
    "run",
    "--questions",
    options.questions,
    ...(options.resolutions === undefined ? [] : ["--resolutions", options.resolutions]),
    ...options.models.flatMap((model) => ["--model", model]),
    "--base-url",
    options.baseUrl,
    "--out",
    options.out,
    "--poll-interval",
    "0.05",
    ...(options.flags ?? []),
  ];
}

/** `sibyl eval run` in this process, from its output directory. */
export function evalRun(options: EvalRunOptions, apiKey: string): Promise<CapturedRun> {
  return sibyl(evalRunArgs(options), apiKey, options.out);
}

export function readSummary(outDir: string): Summary {
  return JSON.parse(readFileSync(path.join(outDir, "summary.json"), "utf8")) as Summary;
}

export function readJsonLines(file: string): Record<string, unknown>[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}
