import type { Readable } from "node:stream";

/** One line of a text stream; `text` is null when the line was longer than the limit. */
export interface Line {
  /** 1-based. */
  number: number;
  text: string | null;
}

const NEWLINE = 0x0a;

/** Splits byte chunks into lines, holding at most one line (bounded) in memory. */
export class LineSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private overflow = false;
  private count = 0;

  constructor(
    private readonly maxLineBytes: number,
    private readonly onLine: (line: Line) => void,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    let newline = chunk.indexOf(NEWLINE, start);
    while (newline !== -1) {
      this.append(chunk.subarray(start, newline));
      this.emit();
      start = newline + 1;
      newline = chunk.indexOf(NEWLINE, start);
    }
    this.append(chunk.subarray(start));
  }

  /** Emits the last line when the stream does not end with a newline. */
  end(): void {
    if (this.pendingBytes > 0 || this.overflow) this.emit();
  }

  private append(part: Buffer): void {
    if (part.length === 0 || this.overflow) return;
    if (this.pendingBytes + part.length > this.maxLineBytes) {
      this.overflow = true;
      this.pending = [];
      this.pendingBytes = 0;
      return;
    }
    this.pending.push(Buffer.from(part));
    this.pendingBytes += part.length;
  }

  private emit(): void {
    this.count += 1;
    let text: string | null = null;
    if (!this.overflow) {
      text = Buffer.concat(this.pending, this.pendingBytes).toString("utf8");
      if (text.endsWith("\r")) text = text.slice(0, -1);
    }
    this.pending = [];
    this.pendingBytes = 0;
    this.overflow = false;
    this.onLine({ number: this.count, text });
  }
}

/** The lines of a stream, one at a time. */
export async function* readLines(stream: Readable, maxLineBytes: number): AsyncGenerator<Line> {
  const ready: Line[] = [];
  const splitter = new LineSplitter(maxLineBytes, (line) => ready.push(line));
  for await (const chunk of stream) {
    splitter.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
    yield* ready.splice(0);
  }
  splitter.end();
  yield* ready.splice(0);
}
