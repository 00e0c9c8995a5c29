import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** What the fake model saw: the chat messages and the number of choices asked for. */
export interface SeenRequest {
  messages: { role: string; content: string }[];
  n: number;
}

export interface ForecasterUpstream {
  /** Base URL including `/v1`. */
  url: string;
  requests: SeenRequest[];
  close(): Promise<void>;
}

/** The reply of choice `index` of `n` to the prompt (the last user message). */
export type Answerer = (prompt: string, index: number, n: number) => string;

/**
 * An OpenAI-compatible model server on loopback that answers every chat completion from the
 * prompt, so that replies vary by question yet stay the same on every run (batch workers run
 * lines in any order).
 */
export async function startForecasterUpstream(answer: Answerer): Promise<ForecasterUpstream> {
  const requests: SeenRequest[] = [];
  const server = createServer((req, res) => {
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      text += chunk;
    });
    req.on("end", () => {
      if (req.method !== "POST" || !req.url?.endsWith("/chat/completions")) {
        res.writeHead(404, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: `no route for ${req.url}` } }));
        return;
      }
      const body = JSON.parse(text) as {
        model: string;
        messages: SeenRequest["messages"];
        n?: number;
      };
      const n = body.n ?? 1;
      requests.push({ messages: body.messages, n });
      const prompt = body.messages.filter((m) => m.role === "user").at(-1)?.content ?? "";
      const choices = Array.from({ length: n }, (_, index) => ({
        index,
        message: { role: "assistant", content: answer(prompt, index, n) },
        finish_reason: "stop",
      }));
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          id: `chatcmpl-${requests.length}`,
          object: "chat.completion",
          created: 1_700_000_000,
          model: body.model,
          choices,
          usage: { prompt_tokens: 100, completion_tokens: 20 * n, total_tokens: 100 + 20 * n },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
