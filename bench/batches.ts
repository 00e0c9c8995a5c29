import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { loadConfig } from "../src/config/index.js";
import { createServices } from "../src/services.js";
import { usdToNanos } from "../src/util/money.js";
import { chatLine } from "../test/batches/support/batch-server.js";
import { freePort, spawnServer, writeConfig } from "../test/batches/support/server-process.js";
import { startFakeUpstream } from "../test/support/fake-upstream.js";
import { DEPLOYED_NODE_OPTIONS } from "./node-options.js";

const BATCH_LINES = 50_000;
const UPLOAD_BYTES = 200 * 1024 * 1024;
const MB = 1024 * 1024;
/** Target: the server running a 50,000-line batch stays under this peak resident set. */
export const MAX_BATCH_PEAK_RSS_MB = 200;

export interface BatchBenchResult {
  linesPerSecond: number;
  batchPeakRssMb: number;
  uploadPeakRssMb: number;
  /** The batch completed with its peak RSS under the target. */
  passed: boolean;
}

/** Peak resident set of a process, from /proc (Linux). */
function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

async function multipartUpload(url: string, apiKey: string, chunks: AsyncIterable<Buffer>) {
  const boundary = "sibyl-bench-boundary";
  const head = Buffer.from(
    `--${boundary}\r\ncontent-disposition: form-data; name="purpose"\r\n\r\nbatch\r\n--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="bench.jsonl"\r\ncontent-type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  async function* body() {
    yield head;
    yield* chunks;
    yield tail;
  }
  const iterator = body();
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
  });
  const response = await fetch(`${url}/v1/files`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${apiKey}`,
      "content-type": `multipart/form-data; boundary=${boundary}`,
    },
    body: stream,
    duplex: "half",
  } as RequestInit);
  if (!response.ok) throw new Error(`upload failed: ${response.status} ${await response.text()}`);
  return (await response.json()) as { id: string; bytes: number };
}

async function* batchLines(count: number): AsyncGenerator<Buffer> {
  for (let start = 0; start < count; start += 1000) {
    const lines: string[] = [];
    for (let i = start; i < Math.min(count, start + 1000); i++) {
      lines.push(JSON.stringify(chatLine(`q-${i}`, "fake-model")));
    }
    yield Buffer.from(`${lines.join("\n")}\n`);
  }
}

async function* bulkLines(bytes: number): AsyncGenerator<Buffer> {
  const line = `${JSON.stringify(chatLine("x".repeat(900), "fake-model"))}\n`;
  const block = Buffer.from(line.repeat(Math.floor(MB / line.length)));
  for (let sent = 0; sent + block.length <= bytes; sent += block.length) yield block;
}

async function withServer<T>(
  upstreamUrl: string,
  work: (url: string, apiKey: string, pid: number) => Promise<T>,
): Promise<T> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "sibyl-bench-"));
  const port = await freePort();
  const configFile = writeConfig(dataDir, {
    server: { host: "127.0.0.1", port, log_level: "warn" },
    models: [{ id: "fake-model", provider: "openai", base_url: upstreamUrl }],
    batches: { concurrency: 64 },
  });
  const config = loadConfig({ file: configFile, env: { SIBYL_DATA_DIR: dataDir }, cwd: dataDir });
  const services = await createServices(config);
  const { key } = await services.accounts.open({
    name: "bench",
    creditsNanos: usdToNanos("1000"),
  });
  const server = await spawnServer(configFile, dataDir, port, DEPLOYED_NODE_OPTIONS);
  try {
    return await work(server.url, key.api_key, server.child.pid ?? 0);
  } finally {
    await server.kill("SIGTERM");
    await services.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * A 50,000-line batch against the fake upstream, and a 200 MB upload, each in a fresh server run
 * from the build (`npm run build` first), as deployments run it.
 */
export async function benchBatches(
  print: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
): Promise<BatchBenchResult> {
  const upstream = await startFakeUpstream();
  try {
    const batch = await withServer(upstream.url, async (url, apiKey, pid) => {
      const idle = peakRssMb(pid);
      const file = await multipartUpload(url, apiKey, batchLines(BATCH_LINES));
      const headers = { authorization: `Bearer ${apiKey}`, "content-type": "application/json" };
      // Creation reads the whole file to work out each line's hold.
      const creating = Date.now();
      const created = (await (
        await fetch(`${url}/v1/batches`, {
          method: "POST",
          headers,
          body: JSON.stringify({
            input_file_id: file.id,
            endpoint: "/v1/chat/completions",
            completion_window: "24h",
          }),
        })
      ).json()) as { id: string };
      const creationSeconds = (Date.now() - creating) / 1000;
      const started = Date.now();
      let status = "validating";
      let counts = { total: 0, completed: 0, failed: 0 };
      while (!["completed", "failed", "expired", "cancelled"].includes(status)) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        const current = (await (
          await fetch(`${url}/v1/batches/${created.id}`, { headers })
        ).json()) as { status: string; request_counts: typeof counts };
        status = current.status;
        counts = current.request_counts;
      }
      const seconds = (Date.now() - started) / 1000;
      if (status !== "completed" || counts.completed !== BATCH_LINES) {
        throw new Error(`batch ended ${status} with ${JSON.stringify(counts)}`);
      }
      return {
        linesPerSecond: Math.round(BATCH_LINES / seconds),
        idle,
        peak: peakRssMb(pid),
        seconds,
        creationSeconds,
      };
    });
    print(
      `batches: ${BATCH_LINES} lines in ${batch.seconds.toFixed(1)} s = ${batch.linesPerSecond} lines/s (validation to output files, after ${batch.creationSeconds.toFixed(1)} s for POST /v1/batches), peak RSS ${batch.peak} MB (${batch.idle} MB before the upload) with ${DEPLOYED_NODE_OPTIONS.join(" ")}`,
    );
    const upload = await withServer(upstream.url, async (url, apiKey, pid) => {
      const started = Date.now();
      const file = await multipartUpload(url, apiKey, bulkLines(UPLOAD_BYTES));
      return { peak: peakRssMb(pid), mb: file.bytes / MB, seconds: (Date.now() - started) / 1000 };
    });
    print(
      `files: ${upload.mb.toFixed(0)} MB upload in ${upload.seconds.toFixed(1)} s, peak RSS ${upload.peak} MB with ${DEPLOYED_NODE_OPTIONS.join(" ")}`,
    );
    const passed = batch.peak < MAX_BATCH_PEAK_RSS_MB;
    print(
      `target: peak RSS of the ${BATCH_LINES}-line batch under ${MAX_BATCH_PEAK_RSS_MB} MB: ${batch.peak} MB [${passed ? "PASS" : "FAIL"}]`,
    );
    return {
      linesPerSecond: batch.linesPerSecond,
      batchPeakRssMb: batch.peak,
      uploadPeakRssMb: upload.peak,
      passed,
    };
  } finally {
    await upstream.close();
  }
}
