import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

export interface Child<T> {
  /** The first JSON line the child printed on stdout. */
  ready: T;
  process: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Runs a TypeScript file of this folder as its own Node process, with `args` as JSON, and the
 * given Node options.
 */
export function startChild<T>(
  file: string,
  args: unknown,
  nodeOptions: readonly string[] = [],
): Promise<Child<T>> {
  const script = fileURLToPath(new URL(file, import.meta.url));
  const argv = [...nodeOptions, "--import", "tsx", script, JSON.stringify(args)];
  const child = spawn(process.execPath, argv, {
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    let buffer = "";
    const onData = (data: Buffer) => {
      buffer += data.toString("utf8");
      const newline = buffer.indexOf("\n");
      if (newline === -1) return;
      child.stdout?.off("data", onData);
      // Whatever it prints later (a server's log) is read and dropped, so it never blocks on a
      // full pipe.
      child.stdout?.resume();
      try {
        const ready = JSON.parse(buffer.slice(0, newline)) as T;
        resolve({ ready, process: child, stop: () => stopChild(child) });
      } catch (error) {
        child.kill();
        reject(new Error(`${file} printed no JSON: ${buffer} (${(error as Error).message})`));
      }
    };
    child.stdout?.on("data", onData);
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`${file} exited early with code ${code}`)));
  });
}

/** Runs a child to completion and returns the JSON it printed last. */
export async function runChild<T>(file: string, args: unknown): Promise<T> {
  const { ready, process: child } = await startChild<T>(file, args);
  if (child.exitCode === null) {
    await new Promise<void>((resolve) => child.once("exit", () => resolve()));
  }
  return ready;
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}
