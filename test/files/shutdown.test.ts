import { Agent, get, type IncomingMessage } from "node:http";
import { toFile } from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type BatchServer,
  chatLine,
  jsonl,
  startBatchServer,
} from "../batches/support/batch-server.js";

describe("shutdown during a download", () => {
  let server: BatchServer;
  beforeAll(async () => {
    server = await startBatchServer({ worker: false });
  });
  afterAll(async () => {
    await server.close();
  });

  it("closes the keep-alive connection once a download that outlived close() ends", async () => {
    const { openai, org } = await server.client();
    const lines = Array.from({ length: 40_000 }, (_, i) => chatLine(`line-${i}`));
    const file = await openai.files.create({
      file: await toFile(Buffer.from(jsonl(lines)), "big.jsonl"),
      purpose: "batch",
    });
    const agent = new Agent({ keepAlive: true });
    try {
      const response = await new Promise<IncomingMessage>((resolve, reject) => {
        get(
          `${server.url}/v1/files/${file.id}/content`,
          { agent, headers: { authorization: `Bearer ${org.apiKey}` } },
          resolve,
        ).once("error", reject);
      });
      // Hold the body back so the response is still running when close() sweeps connections.
      response.pause();
      const closed = server.app.close().then(() => "closed" as const);
      await new Promise((resolve) => setTimeout(resolve, 100));
      let bytes = 0;
      response.on("data", (chunk: Buffer) => {
        bytes += chunk.length;
      });
      response.resume();
      await new Promise((resolve) => response.once("end", resolve));
      expect(bytes).toBe(file.bytes);
      const timeout = new Promise<"timeout">((resolve) => setTimeout(resolve, 5_000, "timeout"));
      expect(await Promise.race([closed, timeout])).toBe("closed");
    } finally {
      agent.destroy();
    }
  });
});
