import type { EchoedChallenge } from "./echoed-challenge.js";
import { decodeJson } from "./jcs.js";
import { PaymentProblem } from "./problems.js";

/** `Authorization: Payment <base64url JSON>`, decoded and shape-checked. */
export interface Credential {
  challenge: EchoedChallenge;
  /** Method-specific proof of payment; each rail checks its own shape. */
  payload: Record<string, unknown>;
  /** The payer, as a DID (`did:pkh:eip155:4217:0x…`), when the client names one. */
  source: string | null;
}

const SCHEME = /^Payment\s+(\S+)\s*$/i;

/** Whether an Authorization header uses the Payment scheme at all. */
export function isPaymentAuthorization(header: string): boolean {
  return /^Payment(\s|$)/i.test(header.trimStart());
}

/** Throws `malformed-credential` for anything but a well-formed credential. */
export function parseCredential(header: string): Credential {
  const token = SCHEME.exec(header.trim())?.[1];
  const decoded = token === undefined ? null : decodeJson(token);
  if (!isRecord(decoded)) {
    throw malformed("the credential must be base64url-encoded JSON after 'Payment '");
  }
  const { challenge, payload, source } = decoded;
  if (!isRecord(challenge)) throw malformed("'challenge' must be an object");
  if (!isRecord(payload)) throw malformed("'payload' must be an object");
  if (source !== undefined && typeof source !== "string") {
    throw malformed("'source' must be a string");
  }
  return { challenge: echoedChallenge(challenge), payload, source: source ?? null };
}

function echoedChallenge(challenge: Record<string, unknown>): EchoedChallenge {
  const required = (name: string): string => {
    const value = challenge[name];
    if (typeof value !== "string" || value === "") {
      throw malformed(`'challenge.${name}' must be a non-empty string`);
    }
    return value;
  };
  const optional = (name: string): Record<string, string> => {
    const value = challenge[name];
    if (value === undefined) return {};
    if (typeof value !== "string") throw malformed(`'challenge.${name}' must be a string`);
    return { [name]: value };
  };
  return {
    id: required("id"),
    realm: required("realm"),
    method: required("method"),
    intent: required("intent"),
    request: required("request"),
    ...optional("expires"),
    ...optional("description"),
    ...optional("digest"),
    ...optional("opaque"),
  };
}

export function malformed(reason: string, challengeId: string | null = null): PaymentProblem {
  return new PaymentProblem(
    "malformed-credential",
    `Credential is malformed: ${reason}.`,
    challengeId,
  );
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
