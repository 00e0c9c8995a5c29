import { request } from "undici";
import { verifierUnavailable } from "../problems.js";

/** The node answered, with a JSON-RPC error object (a refused transaction, an unknown method). */
export class JsonRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = "JsonRpcError";
  }
}

/** JSON-RPC 2.0 calls to a chain node; an unreachable node is a 502 ServiceError. */
export interface JsonRpcTransport {
  call(method: string, params: unknown[]): Promise<unknown>;
}

const NODE = "The chain node";

/**
 * The node's answer to a lookup. A JSON-RPC error there tells nothing about the payment being
 * checked: it is a 502 (the verifier is unavailable), not a 402.
 */
export async function nodeLookup(
  node: JsonRpcTransport,
  method: string,
  params: unknown[],
): Promise<unknown> {
  try {
    return await node.call(method, params);
  } catch (error) {
    if (error instanceof JsonRpcError) {
      throw verifierUnavailable(NODE, `${method} failed: ${error.message}`);
    }
    throw error;
  }
}

/** JSON-RPC over HTTP POST. */
export class HttpJsonRpcTransport implements JsonRpcTransport {
  private nextId = 1;

  constructor(
    private readonly url: string,
    private readonly timeoutMs: number,
  ) {}

  async call(method: string, params: unknown[]): Promise<unknown> {
    const id = this.nextId++;
    let text: string;
    let status: number;
    try {
      const response = await request(this.url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id, method, params }),
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
      });
      status = response.statusCode;
      text = await response.body.text();
    } catch (error) {
      throw verifierUnavailable(NODE, (error as Error).message);
    }
    if (status < 200 || status >= 300) throw verifierUnavailable(NODE, `HTTP ${status}`);
    return answerOf(text, id);
  }
}

function answerOf(text: string, id: number): unknown {
  let answer: unknown;
  try {
    answer = JSON.parse(text);
  } catch {
    throw verifierUnavailable(NODE, "the answer is not JSON");
  }
  if (typeof answer !== "object" || answer === null || (answer as { id?: unknown }).id !== id) {
    throw verifierUnavailable(NODE, "the answer is not a JSON-RPC response to the call");
  }
  const { error, result } = answer as {
    error?: { code?: unknown; message?: unknown };
    result?: unknown;
  };
  if (error) {
    const code = typeof error.code === "number" ? error.code : 0;
    throw new JsonRpcError(code, typeof error.message === "string" ? error.message : "error");
  }
  return result ?? null;
}
