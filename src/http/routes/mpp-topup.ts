import { type Static, Type } from "@sinclair/typebox";
import type { FastifyReply, FastifyRequest } from "fastify";
import { ServiceError } from "../../errors.js";
import { dollarText, TOPUP_CENTS } from "../../payments/amounts.js";
import { isPaymentAuthorization } from "../../payments/credential.js";
import { PaymentProblem } from "../../payments/problems.js";
import type { Services } from "../../services.js";
import type { App } from "../app-instance.js";
import { presentationOf, sendPaymentProblem } from "../payment-problem.js";
import { ErrorResponse, Nullable } from "../schemas/common.js";

const MppTopupRequest = Type.Object(
  {
    amount_cents: Type.Optional(
      Nullable(
        Type.Integer({
          minimum: TOPUP_CENTS.min,
          maximum: TOPUP_CENTS.max,
          description: `Top-up size in cents; default ${TOPUP_CENTS.default}.`,
        }),
      ),
    ),
  },
  { additionalProperties: false },
);

const MppTopupResponse = Type.Object({
  organization_id: Type.String(),
  credited_cents: Type.Integer(),
  api_key: Nullable(Type.String({ description: "Shown once, to a new payer; null on a refill." })),
  api_key_id: Nullable(Type.String()),
});

/** RFC 9457 problem details, plus the OpenAI-style `error` every Sibyl error carries. */
const PaymentProblemBody = Type.Object({
  type: Type.String(),
  title: Type.String(),
  status: Type.Union([Type.Literal(400), Type.Literal(402)]),
  detail: Type.String(),
  challengeId: Type.Optional(Type.String()),
  error: Type.Object({
    message: Type.String(),
    type: Type.String(),
    param: Nullable(Type.String()),
    code: Nullable(Type.String()),
  }),
});

const invalidRefillKey = () =>
  new ServiceError("unauthorized", "Invalid or revoked API key in X-API-Key.", {
    code: "invalid_api_key",
  });

type Topups = NonNullable<Services["topups"]>;
type TopupRequest = FastifyRequest<{ Body: Static<typeof MppTopupRequest> }>;

/** `POST /v1/mpp/topup`: credits bought with the HTTP Payment scheme (no Bearer key). */
export function registerTopupRoute(app: App, services: Services): void {
  const { topups } = services;
  if (!topups) {
    registerNoPayments(app);
    return;
  }
  app.post<{ Body: Static<typeof MppTopupRequest> }>(
    "/mpp/topup",
    {
      config: { public: true },
      // The body is optional: none at all reads as `{}`.
      preValidation: async (request) => {
        request.body ??= {};
      },
      schema: topupSchema(topups),
    },
    (request, reply) => topUp(services, topups, request, reply),
  );
}

/** Without a `payments` configuration the route says so, and why. */
function registerNoPayments(app: App): void {
  app.post("/mpp/topup", { config: { public: true }, schema: { hide: true } }, async () => {
    throw new ServiceError(
      "not_found",
      "This server takes no machine payments (no `payments` configuration); ask its operator for an API key.",
      { code: "payments_not_configured" },
    );
  });
}

function topupSchema(topups: Topups) {
  return {
    summary: "Buy credits with a machine payment (HTTP Payment scheme)",
    description:
      "Without `Authorization: Payment …` answers 402 with one `WWW-Authenticate: Payment` challenge per rail. Retried with a credential for one of them (and the same amount_cents), credits the payment: to a new organization whose API key is returned once, or, with `X-API-Key`, to that key's organization.",
    tags: ["payments"],
    security: [],
    headers: Type.Object({
      "x-api-key": Type.Optional(
        Type.String({ description: "An existing API key, to refill its organization." }),
      ),
    }),
    body: MppTopupRequest,
    response: {
      200: MppTopupResponse,
      401: Type.Ref(ErrorResponse),
      400: {
        description: "The credential names a payment method this server does not take.",
        content: { "application/problem+json": { schema: PaymentProblemBody } },
      },
      402: {
        description: "Payment required, or the credential did not prove a payment.",
        content: { "application/problem+json": { schema: PaymentProblemBody } },
      },
      422: Type.Ref(ErrorResponse),
      429: Type.Ref(ErrorResponse),
      503: Type.Ref(ErrorResponse),
    },
    // The machine-readable offers (draft-payment-discovery); an extension Fastify's types do not know.
    "x-payment-info": { offers: topups.offers() },
  };
}

/**
 * Answers 402 with the challenges without a payment credential; with one, credits the payment
 * (a credential that proves none is a 402 again).
 */
async function topUp(
  services: Services,
  topups: Topups,
  request: TopupRequest,
  reply: FastifyReply,
) {
  const amountCents = request.body.amount_cents ?? TOPUP_CENTS.default;
  const refill = await refillOrganization(services, request);
  const authorization = request.headers.authorization;
  if (!authorization || !isPaymentAuthorization(authorization)) {
    const problem = new PaymentProblem(
      "payment-required",
      `A ${dollarText(amountCents)} top-up requires payment: pay one of the challenges in WWW-Authenticate and retry with 'Authorization: Payment <credential>'.`,
    );
    return sendPaymentProblem(reply, request, topups, amountCents, problem, refill);
  }
  try {
    const result = await topups.redeem(authorization, amountCents, refill, presentationOf(request));
    // The answer may carry a new key: no cache keeps it.
    reply.header("payment-receipt", result.receipt).header("cache-control", "no-store");
    return {
      organization_id: result.organizationId,
      credited_cents: result.creditedCents,
      api_key: result.apiKey,
      api_key_id: result.apiKeyId,
    };
  } catch (error) {
    if (error instanceof PaymentProblem) {
      return sendPaymentProblem(reply, request, topups, amountCents, error, refill);
    }
    throw error;
  }
}

/** The organization an `X-API-Key` names; null without one; 401 for an unknown or revoked key. */
async function refillOrganization(
  services: Services,
  request: FastifyRequest,
): Promise<string | null> {
  const header = request.headers["x-api-key"];
  if (header === undefined) return null;
  if (typeof header !== "string") throw invalidRefillKey();
  const principal = await services.apiKeys.authenticate(header.trim());
  if (!principal) throw invalidRefillKey();
  return principal.organizationId;
}
