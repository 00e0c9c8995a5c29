import { Challenge } from "mppx";
import { type Hex, keccak256, stringToHex } from "viem";

export interface WireChallenge {
  id: string;
  realm: string;
  method: string;
  intent: string;
  expires?: string | undefined;
  description?: string | undefined;
  opaque?: string | undefined;
  /** Decoded. */
  request: Record<string, unknown>;
}

export interface TopupAnswer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

export async function postTopup(
  baseUrl: string,
  options: { amountCents?: number; authorization?: string; apiKey?: string; path?: string } = {},
): Promise<TopupAnswer> {
  const headers: Record<string, string> = {};
  if (options.authorization) headers.authorization = options.authorization;
  if (options.apiKey) headers["x-api-key"] = options.apiKey;
  const init: RequestInit = { method: "POST", headers };
  if (options.amountCents !== undefined) {
    headers["content-type"] = "application/json";
    init.body = JSON.stringify({ amount_cents: options.amountCents });
  }
  const response = await fetch(`${baseUrl}${options.path ?? "/v1/mpp/topup"}`, init);
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text === "" ? {} : (JSON.parse(text) as Record<string, unknown>),
  };
}

/** Every Payment challenge of a 402, parsed by the MPP SDK (so the wire form is checked too). */
export function challengesOf(answer: TopupAnswer): WireChallenge[] {
  const header = answer.headers.get("www-authenticate");
  if (!header) throw new Error(`no WWW-Authenticate in a ${answer.status} answer`);
  return Challenge.deserializeList(header) as WireChallenge[];
}

export function challengeFor(answer: TopupAnswer, method: string): WireChallenge {
  const found = challengesOf(answer).find((challenge) => challenge.method === method);
  if (!found) throw new Error(`no ${method} challenge`);
  return found;
}

/** The base64url JCS request exactly as it was issued (the SDK re-serializes it canonically). */
function wireRequest(challenge: WireChallenge): string {
  return Challenge.serialize(challenge as Parameters<typeof Challenge.serialize>[0]).match(
    /request="([^"]+)"/,
  )?.[1] as string;
}

/** `Authorization: Payment …` echoing the challenge, with a method-specific payload. */
export function paymentCredential(
  challenge: WireChallenge,
  payload: Record<string, unknown>,
  options: { source?: string; request?: string } = {},
): string {
  const echoed = {
    id: challenge.id,
    realm: challenge.realm,
    method: challenge.method,
    intent: challenge.intent,
    request: options.request ?? wireRequest(challenge),
    ...(challenge.description ? { description: challenge.description } : {}),
    ...(challenge.expires ? { expires: challenge.expires } : {}),
    ...(challenge.opaque ? { opaque: challenge.opaque } : {}),
  };
  const json = {
    challenge: echoed,
    payload,
    ...(options.source ? { source: options.source } : {}),
  };
  return `Payment ${Buffer.from(JSON.stringify(json)).toString("base64url")}`;
}

const prefix = (hash: Hex, bytes: number) => hash.slice(2, 2 + bytes * 2);

/** The MPP attribution memo a wallet puts on its transfer for this challenge (32 bytes). */
export function attributionMemo(challengeId: string, realm: string): Hex {
  const tag = prefix(keccak256(stringToHex("mpp")), 4);
  const server = prefix(keccak256(stringToHex(realm)), 10);
  const client = "00".repeat(10);
  const nonce = prefix(keccak256(stringToHex(challengeId)), 7);
  return `0x${tag}01${server}${client}${nonce}`;
}
