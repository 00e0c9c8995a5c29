import { encodeJson } from "./jcs.js";

/** The `Payment-Receipt` header value: base64url JSON, as the draft defines it. */
export function paymentReceipt(fields: {
  method: string;
  reference: string;
  timestampMs: number;
  challengeId: string;
}): string {
  return encodeJson({
    status: "success",
    method: fields.method,
    timestamp: new Date(fields.timestampMs).toISOString(),
    reference: fields.reference,
    challengeId: fields.challengeId,
  });
}
