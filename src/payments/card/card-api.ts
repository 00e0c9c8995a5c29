import { request } from "undici";
import { verifierUnavailable } from "../problems.js";

export interface PaymentIntentRequest {
  /** Form fields of `POST /v1/payment_intents`. */
  form: Record<string, string>;
  idempotencyKey: string;
}

export type PaymentIntentAnswer =
  | { kind: "created"; id: string; status: string; amount: number; currency: string }
  /** The processor refused the request (declined, unknown token, reused idempotency key). */
  | { kind: "refused"; message: string };

/** The card processor's PaymentIntent API; unreachable or failing on its side is a 503 with Retry-After. */
export interface CardProcessor {
  createPaymentIntent(request: PaymentIntentRequest): Promise<PaymentIntentAnswer>;
  /** The PaymentIntent as it stands now (`GET /v1/payment_intents/:id`). */
  retrievePaymentIntent(id: string): Promise<PaymentIntentAnswer>;
}

const PROCESSOR = "The card processor";

/** Stripe's API (or one that speaks it): form-encoded, Basic auth with the secret key. */
export class HttpCardProcessor implements CardProcessor {
  constructor(
    private readonly options: {
      apiBase: string;
      secretKey: string;
      apiVersion: string;
      timeoutMs: number;
    },
  ) {}

  createPaymentIntent(intent: PaymentIntentRequest): Promise<PaymentIntentAnswer> {
    return this.send("POST", "/v1/payment_intents", {
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        "idempotency-key": intent.idempotencyKey,
      },
      body: new URLSearchParams(intent.form).toString(),
    });
  }

  retrievePaymentIntent(id: string): Promise<PaymentIntentAnswer> {
    return this.send("GET", `/v1/payment_intents/${encodeURIComponent(id)}`, { headers: {} });
  }

  private async send(
    method: "GET" | "POST",
    path: string,
    options: { headers: Record<string, string>; body?: string },
  ): Promise<PaymentIntentAnswer> {
    let status: number;
    let text: string;
    try {
      const response = await request(`${this.options.apiBase}${path}`, {
        method,
        headers: {
          authorization: `Basic ${Buffer.from(`${this.options.secretKey}:`).toString("base64")}`,
          "stripe-version": this.options.apiVersion,
          ...options.headers,
        },
        ...(options.body === undefined ? {} : { body: options.body }),
        headersTimeout: this.options.timeoutMs,
        bodyTimeout: this.options.timeoutMs,
      });
      status = response.statusCode;
      text = await response.body.text();
    } catch (error) {
      throw verifierUnavailable(PROCESSOR, (error as Error).message);
    }
    const body = parseJson(text);
    // Our own key refused, rate limits and the processor's failures say nothing about the payment.
    if (status === 401 || status === 403 || status === 429 || status >= 500) {
      throw verifierUnavailable(PROCESSOR, `HTTP ${status}`);
    }
    if (status >= 400) return { kind: "refused", message: errorMessage(body, status) };
    if (!isPaymentIntent(body))
      throw verifierUnavailable(PROCESSOR, "the answer is not a PaymentIntent");
    const { id, status: state, amount, currency } = body;
    return { kind: "created", id, status: state, amount, currency };
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

function isPaymentIntent(
  body: unknown,
): body is { id: string; status: string; amount: number; currency: string } {
  if (typeof body !== "object" || body === null) return false;
  const { id, status, amount, currency } = body as Record<string, unknown>;
  return (
    typeof id === "string" &&
    typeof status === "string" &&
    typeof amount === "number" &&
    typeof currency === "string"
  );
}

function errorMessage(body: unknown, status: number): string {
  const error = (body as { error?: { message?: unknown } } | null)?.error;
  return typeof error?.message === "string" ? error.message : `HTTP ${status}`;
}
