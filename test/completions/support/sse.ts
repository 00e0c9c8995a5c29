/** A request to Sibyl as raw HTTP, for what an SDK hides: the SSE bytes, headers, bad JSON. */
export async function post(
  baseUrl: string,
  path: string,
  apiKey: string,
  body: unknown,
  init: { signal?: AbortSignal; rawBody?: string } = {},
): Promise<Response> {
  return fetch(`${baseUrl}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
    body: init.rawBody ?? JSON.stringify(body),
    ...(init.signal ? { signal: init.signal } : {}),
  });
}

/** The `data:` payloads of a complete SSE body, in order (`[DONE]` kept as the string). */
export function dataLines(text: string): string[] {
  return text
    .split(/\n\n/)
    .map((block) => block.trim())
    .filter((block) => block !== "")
    .map((block) => {
      if (!block.startsWith("data: ")) throw new Error(`not an SSE data line: ${block}`);
      return block.slice("data: ".length);
    });
}

export type Json = Record<string, unknown>;

/** The JSON events of a complete SSE body and whether it ended with `[DONE]`. */
export function parseEventStream(text: string): { events: Json[]; done: boolean } {
  const lines = dataLines(text);
  const done = lines.at(-1) === "[DONE]";
  const events = lines.filter((line) => line !== "[DONE]").map((line) => JSON.parse(line) as Json);
  return { events, done };
}

/** Reads SSE events as they arrive, so a test can stop part-way. */
export async function* readEvents(response: Response): AsyncGenerator<Json> {
  if (!response.body) throw new Error("no response body");
  const decoder = new TextDecoder();
  let buffer = "";
  for await (const bytes of response.body) {
    buffer += decoder.decode(bytes, { stream: true });
    let end = buffer.indexOf("\n\n");
    while (end !== -1) {
      const block = buffer.slice(0, end).trim();
      buffer = buffer.slice(end + 2);
      if (block.startsWith("data: ") && block !== "data: [DONE]") {
        yield JSON.parse(block.slice("data: ".length)) as Json;
      }
      end = buffer.indexOf("\n\n");
    }
  }
}
