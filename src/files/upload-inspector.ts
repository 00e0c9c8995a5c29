import { Transform, type TransformCallback } from "node:stream";
import { ServiceError } from "../errors.js";
import { LineSplitter } from "./lines.js";

/** Longest single line a JSON Lines file may hold; longer lines are reported, not buffered. */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;

export type JsonLinesVerdict =
  | { valid: true; lines: number }
  | { valid: false; line: number; reason: string };

/**
 * Passes an upload through unchanged while counting bytes (failing past the size limit) and
 * checking that every non-blank line is a JSON value.
 */
export class UploadInspector extends Transform {
  bytes = 0;
  private lines = 0;
  private problem: { line: number; reason: string } | null = null;
  private readonly splitter = new LineSplitter(MAX_LINE_BYTES, (line) => {
    if (this.problem) return;
    if (line.text === null) {
      this.problem = { line: line.number, reason: "is longer than 16 MB" };
      return;
    }
    if (line.text.trim() === "") return;
    this.lines += 1;
    try {
      JSON.parse(line.text);
    } catch {
      this.problem = { line: line.number, reason: "is not valid JSON" };
    }
  });

  constructor(private readonly maxBytes: number) {
    super();
  }

  verdict(): JsonLinesVerdict {
    if (this.problem) return { valid: false, ...this.problem };
    return { valid: true, lines: this.lines };
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) {
      done(
        new ServiceError("too_large", `File is larger than the limit of ${this.maxBytes} bytes.`, {
          code: "file_too_large",
          param: "file",
        }),
      );
      return;
    }
    if (!this.problem) this.splitter.push(chunk);
    done(null, chunk);
  }

  override _flush(done: TransformCallback): void {
    if (!this.problem) this.splitter.end();
    done();
  }
}
