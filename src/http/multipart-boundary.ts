import { invalidRequest } from "../errors.js";

/** RFC 2046 §5.1.1: 1 to 70 of these characters, the last one not a space. */
const VALID_BOUNDARY = /^[0-9A-Za-z'()+_,\-./:=? ]{0,69}[0-9A-Za-z'()+_,\-./:=?]$/;

/** One `; name=value` parameter of a Content-Type, the value a token or a quoted string. */
const PARAMETER = /;\s*([^\s;=]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;]*)/g;

/**
 * The boundary of a `multipart/form-data` Content-Type. Checked here because the multipart
 * parser fails on a missing or overlong boundary with an error that reads as a server fault.
 */
export function multipartBoundary(contentType: string | undefined): string {
  const boundary = boundaryParameter(contentType ?? "");
  if (boundary === null || !VALID_BOUNDARY.test(boundary)) {
    throw invalidRequest(
      boundary === null
        ? "Content-Type multipart/form-data has no boundary parameter."
        : "The multipart boundary must be 1 to 70 letters, digits or '()+_,-./:=? characters (RFC 2046).",
      "invalid_multipart_boundary",
    );
  }
  return boundary;
}

/** The first `boundary` parameter, unquoted, as the multipart parser reads it. */
function boundaryParameter(contentType: string): string | null {
  for (const [, name, value] of contentType.matchAll(PARAMETER)) {
    if (name?.toLowerCase() !== "boundary" || value === undefined) continue;
    return value.startsWith('"') ? value.slice(1, -1).replace(/\\(.)/g, "$1") : value.trim();
  }
  return null;
}

/**
 * Watches a multipart body go by for its closing delimiter. The parser treats a body that stops
 * without one as a normal end, so a truncated upload or a misspelled closing boundary would
 * otherwise be taken for a complete form.
 */
export class ClosingDelimiterWatch {
  private readonly delimiter: Buffer;
  /** The last bytes seen, so a delimiter split across two chunks is still found. */
  private tail: Buffer;
  complete = false;

  constructor(boundary: string) {
    this.delimiter = Buffer.from(`\r\n--${boundary}--`);
    // A body may open with its closing delimiter (an empty form), with no line break before it.
    this.tail = Buffer.from("\r\n");
  }

  observe(chunk: Buffer): void {
    if (this.complete) return;
    const keep = this.delimiter.length - 1;
    const seam = Buffer.concat([this.tail, chunk.subarray(0, keep)]);
    if (seam.includes(this.delimiter) || chunk.includes(this.delimiter)) {
      this.complete = true;
      return;
    }
    this.tail =
      chunk.length >= keep
        ? chunk.subarray(chunk.length - keep)
        : Buffer.concat([this.tail, chunk]).subarray(-keep);
  }
}
