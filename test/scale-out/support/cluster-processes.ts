import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { BUILT_CLI } from "../../support/builds.js";

const ROOT = path.resolve(import.meta.dirname, "../../..");

/** One `sibyl` CLI process (serve or worker), run the way a deployment runs it. */
export interface SibylProcess {
  child: ChildProcess;
  output(): string;
  /** Whether the process said it is running (a worker logs `worker started`). */
  started(): boolean;
  /** Sends `signal` and resolves with the exit code (null when a signal ended it). */
  kill(signal: NodeJS.Signals): Promise<number | null>;
}

export function spawnSibyl(args: string[], env: Record<string, string>): SibylProcess {
  const child = spawn(process.execPath, [BUILT_CLI, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  let started = false;
  const keep = (chunk: Buffer) => {
    started ||= chunk.toString().includes('"worker started"');
    // The last part is enough to explain a failure.
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => resolve(code)),
  );
  return {
    child,
    output: () => output,
    started: () => started,
    kill: async (signal) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** Resolves once `url`/healthz answers 200; fails if the process exits or 60 s pass. */
export async function waitHealthy(process: SibylProcess, url: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (process.child.exitCode !== null) throw new Error(`exited early:\n${process.output()}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`did not start:\n${process.output()}`);
    await sleep(100);
  }
}
