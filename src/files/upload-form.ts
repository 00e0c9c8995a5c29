import { invalidRequest } from "../errors.js";

export const MIN_EXPIRY_SECONDS = 3600;
export const MAX_EXPIRY_SECONDS = 2_592_000;

/** The purposes a client may upload with; `batch_output` files are written by the service. */
export type UploadPurpose = "batch" | "evaluation";

export interface UploadFields {
  purpose: UploadPurpose;
  /** Seconds after creation at which the file expires, or null for never. */
  expiresAfterSeconds: number | null;
}

/** Checks the text fields of an upload form: purpose, and the optional expiry policy. */
export function parseUploadFields(fields: ReadonlyMap<string, string>): UploadFields {
  const purpose = fields.get("purpose");
  if (purpose === undefined) {
    throw invalidRequest(
      "Missing required form field 'purpose'.",
      "missing_required_parameter",
      "purpose",
    );
  }
  if (purpose === "batch_output") {
    throw invalidRequest(
      "Purpose 'batch_output' is reserved for result files the service writes; upload with purpose 'batch' or 'evaluation'.",
      "invalid_purpose",
      "purpose",
    );
  }
  if (purpose !== "batch" && purpose !== "evaluation") {
    throw invalidRequest(
      `Invalid purpose '${purpose}': the only purposes accepted for uploads are 'batch' and 'evaluation'.`,
      "invalid_purpose",
      "purpose",
    );
  }
  return { purpose, expiresAfterSeconds: parseExpiry(fields) };
}

function parseExpiry(fields: ReadonlyMap<string, string>): number | null {
  const anchor = fields.get("expires_after[anchor]");
  const seconds = fields.get("expires_after[seconds]");
  if (anchor === undefined && seconds === undefined) return null;
  if (anchor !== "created_at") {
    throw invalidRequest(
      anchor === undefined
        ? "Missing 'expires_after[anchor]': it must be 'created_at' when 'expires_after[seconds]' is set."
        : `Invalid 'expires_after[anchor]' '${anchor}': the only anchor supported is 'created_at'.`,
      "invalid_expires_after",
      "expires_after[anchor]",
    );
  }
  const value = seconds === undefined ? Number.NaN : Number(seconds.trim());
  if (
    !Number.isInteger(value) ||
    value < MIN_EXPIRY_SECONDS ||
    value > MAX_EXPIRY_SECONDS ||
    seconds?.trim() === ""
  ) {
    throw invalidRequest(
      `'expires_after[seconds]' must be a whole number from ${MIN_EXPIRY_SECONDS} to ${MAX_EXPIRY_SECONDS}, got ${seconds === undefined ? "nothing" : `'${seconds}'`}.`,
      "invalid_expires_after",
      "expires_after[seconds]",
    );
  }
  return value;
}
