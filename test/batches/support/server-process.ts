import { type ChildProcess, spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { stringify } from "yaml";
import { BUILT_CLI } from "../../support/builds.js";

const ROOT = path.resolve(import.meta.dirname, "../../..");

/** A `sibyl serve` process of its own, so it can be killed like a real deployment. */
export interface ServerProcess {
  url: string;
  child: ChildProcess;
  output(): string;
  kill(signal: NodeJS.Signals): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

export function writeConfig(dir: string, config: Record<string, unknown>): string {
  const file = path.join(dir, "sibyl.yaml");
  writeFileSync(file, stringify(config));
  return file;
}

/** `sibyl serve` from the build; `nodeOptions`: flags for its Node.js, as a deployment sets. */
export async function spawnServer(
  configFile: string,
  dataDir: string,
  port: number,
  nodeOptions: string[] = [],
) {
  const child = spawn(
    process.execPath,
    [...nodeOptions, BUILT_CLI, "serve", "--config", configFile],
    {
      cwd: ROOT,
      env: { ...process.env, SIBYL_DATA_DIR: dataDir },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    try {
      const response = await fetch(`${url}/healthz`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    child,
    output: () => output,
    kill: (signal: NodeJS.Signals) =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) {
          resolve();
          return;
        }
        child.once("exit", () => resolve());
        child.kill(signal);
      }),
  } satisfies ServerProcess;
}
