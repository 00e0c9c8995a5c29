import { type ChildProcess, spawn } from "node:child_process";
import { BUILT_CLI } from "./builds.js";

export interface CliOptions {
  /** Working directory; also SIBYL_DATA_DIR unless `env` sets it. */
  cwd: string;
  env?: Record<string, string>;
}

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Only what the CLI needs, so nothing from the test runner's environment leaks in. */
function cliEnvironment(options: CliOptions): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: options.cwd,
    SIBYL_DATA_DIR: options.cwd,
    ...options.env,
  };
}

/** Starts `sibyl ARGS` as its own process. */
export function spawnCli(args: string[], options: CliOptions): ChildProcess {
  return spawn(process.execPath, [BUILT_CLI, ...args], {
    cwd: options.cwd,
    env: cliEnvironment(options),
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/** Collects a process's output until it exits. */
export function completion(child: ChildProcess): Promise<CliResult> {
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    stdout += chunk.toString("utf8");
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** Runs `sibyl ARGS` to completion. */
export function runCli(args: string[], options: CliOptions): Promise<CliResult> {
  return completion(spawnCli(args, options));
}

/** The one JSON document a successful command prints, and nothing else on stdout. */
export function singleJson(result: {
  code: number | null;
  stdout: string;
  stderr: string;
}): Record<string, unknown> {
  if (result.code !== 0) {
    throw new Error(`exit ${result.code}: ${result.stderr}`);
  }
  const lines = result.stdout.split("\n").filter((line) => line.trim() !== "");
  if (lines.length !== 1) throw new Error(`expected one line on stdout, got: ${result.stdout}`);
  return JSON.parse(lines[0] as string) as Record<string, unknown>;
}
