import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export const CARD_SECRET_KEY = "sk_test_sibyl_card_rail";

/** What an idempotency key stored: the first request's body and the answer it got. */
interface Stored {
  body: string;
  status: number;
  answer: Record<string, unknown>;
}

/**
 * A Stripe-shaped PaymentIntent API on loopback: `POST /v1/payment_intents`, form-encoded, Basic
 * auth with the secret key, `Idempotency-Key` required. A shared payment token it issued
 * confirms the intent at once (`succeeded`); a declined one answers 402 `card_declined`. The
 * same idempotency key with the same parameters replays the first answer
 * (`Idempotent-Replayed: true`); with other parameters it is refused. A token issued as
 * `processing` leaves its intent `processing` until `finish`; `GET /v1/payment_intents/:id` gives
 * an intent as it stands.
 */
export class FakeCardApi {
  readonly requests: { headers: IncomingMessage["headers"]; form: URLSearchParams }[] = [];
  private readonly tokens = new Map<string, { declined: boolean; processing: boolean }>();
  /** Every PaymentIntent created, by id, as it stands now. */
  private readonly byId = new Map<string, Record<string, unknown>>();
  private readonly stored = new Map<string, Stored>();
  private intents = 0;
  private server: Server | null = null;
  private nextToken = 1;
  url = "";

  async start(): Promise<this> {
    this.server = createServer((request, response) => {
      let body = "";
      request.setEncoding("utf8");
      request.on("data", (chunk: string) => {
        body += chunk;
      });
      request.on("end", () => this.answer(request, body, response));
    });
    const server = this.server;
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** A shared payment token granted to the merchant, as a payer's wallet would obtain one. */
  issueToken(options: { declined?: boolean; processing?: boolean } = {}): string {
    const token = `spt_test${String(this.nextToken++).padStart(6, "0")}`;
    this.tokens.set(token, {
      declined: options.declined ?? false,
      processing: options.processing ?? false,
    });
    return token;
  }

  /** A PaymentIntent left `processing` becomes final. */
  finish(id: string, status: "succeeded" | "canceled" | "requires_payment_method"): void {
    const intent = this.byId.get(id);
    if (intent) intent.status = status;
  }

  /** The ids of the intents created, oldest first. */
  get intentIds(): string[] {
    return [...this.byId.keys()];
  }

  /** PaymentIntents actually created (replays excluded). */
  get created(): number {
    return this.intents;
  }

  private answer(request: IncomingMessage, body: string, response: ServerResponse) {
    const reply = (status: number, json: unknown, headers: Record<string, string> = {}) => {
      response.writeHead(status, { "content-type": "application/json", ...headers });
      response.end(JSON.stringify(json));
    };
    const expected = `Basic ${Buffer.from(`${CARD_SECRET_KEY}:`).toString("base64")}`;
    const error = (status: number, type: string, message: string, code?: string) =>
      reply(status, { error: { type, message, ...(code ? { code } : {}) } });
    const retrieved = /^\/v1\/payment_intents\/([A-Za-z0-9_]+)$/.exec(request.url ?? "");
    if (request.method === "GET" && retrieved) {
      if (request.headers.authorization !== expected) {
        return error(401, "invalid_request_error", "Invalid API Key provided.");
      }
      const intent = this.byId.get(retrieved[1] ?? "");
      if (!intent) {
        return error(
          404,
          "invalid_request_error",
          `No such payment_intent: '${retrieved[1]}'`,
          "resource_missing",
        );
      }
      return reply(200, intent);
    }
    if (request.method !== "POST" || request.url !== "/v1/payment_intents") {
      return error(404, "invalid_request_error", `Unrecognized request URL (${request.url}).`);
    }
    if (request.headers.authorization !== expected) {
      return error(401, "invalid_request_error", "Invalid API Key provided.");
    }
    const form = new URLSearchParams(body);
    this.requests.push({ headers: request.headers, form });
    const key = request.headers["idempotency-key"];
    if (typeof key !== "string" || key === "") {
      return error(400, "invalid_request_error", "An Idempotency-Key header is required.");
    }
    const previous = this.stored.get(key);
    if (previous) {
      if (previous.body !== body) {
        return error(
          400,
          "idempotency_error",
          "Keys for idempotent requests can only be used with the same parameters they were first used with.",
        );
      }
      return reply(previous.status, previous.answer, { "idempotent-replayed": "true" });
    }
    const token = this.tokens.get(form.get("shared_payment_granted_token") ?? "");
    if (!token) return error(400, "invalid_request_error", "No such shared payment token.");
    // A request that reached the processing (declined or not) stores its result under the key.
    if (token.declined) {
      const declined = {
        error: { type: "card_error", code: "card_declined", message: "Your card was declined." },
      };
      this.stored.set(key, { body, status: 402, answer: declined });
      return reply(402, declined);
    }
    this.intents += 1;
    const id = `pi_test${String(this.intents).padStart(8, "0")}`;
    const answer = {
      id,
      object: "payment_intent",
      amount: Number(form.get("amount")),
      currency: form.get("currency"),
      status:
        form.get("confirm") !== "true"
          ? "requires_confirmation"
          : token.processing
            ? "processing"
            : "succeeded",
      metadata: {},
    };
    this.byId.set(id, { ...answer });
    this.stored.set(key, { body, status: 200, answer });
    reply(200, answer);
  }
}
