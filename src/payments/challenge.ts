import { createHmac, timingSafeEqual } from "node:crypto";

/** The parameters of one `WWW-Authenticate: Payment` challenge, as they travel. */
export interface Challenge {
  id: string;
  realm: string;
  method: string;
  intent: string;
  /** base64url of the JCS-serialized charge request. */
  request: string;
  /** RFC 3339. */
  expires: string;
  description: string;
  /** base64url JCS of `{"nonce": …}`: makes each challenge, and so its id, unique. */
  opaque: string;
}

/** The fields a challenge id is bound to; `digest` and `opaque` are echoed only if issued. */
export interface BoundFields {
  realm: string;
  method: string;
  intent: string;
  request: string;
  expires?: string | undefined;
  digest?: string | undefined;
  opaque?: string | undefined;
}

/** Secrets shorter than this are refused at start (the HMAC key of challenge ids). */
export const MIN_SECRET_BYTES = 32;

/**
 * Challenge ids are HMAC-SHA256 over the seven positional fields of the draft's recommended
 * binding (`realm|method|intent|request|expires|digest|opaque`, absent ones empty), so a server
 * recognises its own unaltered challenges without storing them.
 */
export class ChallengeSigner {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = Buffer.from(secret, "utf8");
    if (this.key.length < MIN_SECRET_BYTES) {
      throw new RangeError(`the challenge secret must hold at least ${MIN_SECRET_BYTES} bytes`);
    }
  }

  idFor(fields: BoundFields): string {
    const input = [
      fields.realm,
      fields.method,
      fields.intent,
      fields.request,
      fields.expires ?? "",
      fields.digest ?? "",
      fields.opaque ?? "",
    ].join("|");
    return createHmac("sha256", this.key).update(input, "utf8").digest("base64url");
  }

  /** Whether `id` is the one this server would give these fields (constant time). */
  matches(id: string, fields: BoundFields): boolean {
    const expected = Buffer.from(this.idFor(fields), "utf8");
    const given = Buffer.from(id, "utf8");
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}

/** The `WWW-Authenticate` value of one challenge (absent optional parameters left out). */
export function challengeHeader(
  challenge: BoundFields & { id: string; description?: string | undefined },
): string {
  const params: [string, string | undefined][] = [
    ["id", challenge.id],
    ["realm", challenge.realm],
    ["method", challenge.method],
    ["intent", challenge.intent],
    ["request", challenge.request],
    ["description", challenge.description],
    ["expires", challenge.expires],
    ["digest", challenge.digest],
    ["opaque", challenge.opaque],
  ];
  const present = params.filter((param): param is [string, string] => param[1] !== undefined);
  return `Payment ${present.map(([name, value]) => `${name}="${quoted(value)}"`).join(", ")}`;
}

/** A quoted-string body (RFC 9110): backslash and double quote escaped. */
function quoted(value: string): string {
  return value.replaceAll("\\", "\\\\").replaceAll('"', '\\"');
}
