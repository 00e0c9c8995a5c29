/** One server-sent event. */
export interface SseMessage {
  event: string;
  data: string;
}

const LINE_BREAK = /[\r\n]/g;

/**
 * Incremental `text/event-stream` parser (WHATWG rules): lines end in CRLF, LF or CR, chunks may
 * split anywhere (even between CR and LF), `:` lines are comments and consecutive `data:` lines
 * join with "\n".
 */
export class SseParser {
  private buffer = "";
  /** The last chunk ended in CR, so a LF opening the next chunk belongs to that line break. */
  private pendingCarriageReturn = false;
  private dataLines: string[] = [];
  private eventType = "";

  push(chunk: string): SseMessage[] {
    if (chunk === "") return [];
    const text = this.pendingCarriageReturn && chunk.startsWith("\n") ? chunk.slice(1) : chunk;
    this.pendingCarriageReturn = false;
    this.buffer += text;
    const messages: SseMessage[] = [];
    let lineStart = 0;
    LINE_BREAK.lastIndex = 0;
    for (let match = LINE_BREAK.exec(this.buffer); match; match = LINE_BREAK.exec(this.buffer)) {
      const breakAt = match.index;
      let next = breakAt + 1;
      if (this.buffer[breakAt] === "\r") {
        if (next === this.buffer.length) this.pendingCarriageReturn = true;
        else if (this.buffer[next] === "\n") next += 1;
      }
      this.processLine(this.buffer.slice(lineStart, breakAt), messages);
      lineStart = next;
      LINE_BREAK.lastIndex = next;
    }
    this.buffer = this.buffer.slice(lineStart);
    return messages;
  }

  /** Flushes at end of stream; lenient about a last event that lacks its blank line. */
  end(): SseMessage[] {
    const messages: SseMessage[] = [];
    if (this.buffer !== "") this.processLine(this.buffer, messages);
    this.buffer = "";
    this.dispatch(messages);
    return messages;
  }

  private processLine(line: string, messages: SseMessage[]): void {
    if (line === "") {
      this.dispatch(messages);
      return;
    }
    if (line.startsWith(":")) return;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    const rawValue = colon === -1 ? "" : line.slice(colon + 1);
    const value = rawValue.startsWith(" ") ? rawValue.slice(1) : rawValue;
    if (field === "data") this.dataLines.push(value);
    else if (field === "event") this.eventType = value;
  }

  private dispatch(messages: SseMessage[]): void {
    if (this.dataLines.length > 0) {
      messages.push({ event: this.eventType || "message", data: this.dataLines.join("\n") });
    }
    this.dataLines = [];
    this.eventType = "";
  }
}

/** Decodes a byte stream (UTF-8, characters may straddle chunks) into events. */
export async function* readSseMessages(
  body: AsyncIterable<Uint8Array>,
): AsyncGenerator<SseMessage> {
  const decoder = new TextDecoder("utf-8");
  const parser = new SseParser();
  for await (const chunk of body) {
    yield* parser.push(decoder.decode(chunk, { stream: true }));
  }
  yield* parser.push(decoder.decode());
  yield* parser.end();
}
