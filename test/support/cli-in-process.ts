import { runCli } from "../../src/cli/run.js";

export interface CapturedRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the CLI's command dispatcher in this process with captured output: the same code path
 * as `sibyl …` without paying for a process start per case.
 */
export async function runInProcess(
  argv: string[],
  env: Record<string, string>,
): Promise<CapturedRun> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, {
    env,
    stdout: (line) => out.push(`${line}\n`),
    stderr: (line) => err.push(`${line}\n`),
  });
  return { code, stdout: out.join(""), stderr: err.join("") };
}
