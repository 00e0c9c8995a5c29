import type { DestinationStream, LoggerOptions } from "pino";

/** Every line the app logs during a run, kept in memory to be searched afterwards. */
export class CapturedLog implements DestinationStream {
  private readonly lines: string[] = [];

  write(line: string): void {
    this.lines.push(line);
  }

  get lineCount(): number {
    return this.lines.length;
  }

  /** The lines that contain `secret`, shortened around it. */
  linesContaining(secret: string): string[] {
    return this.lines
      .filter((line) => line.includes(secret))
      .map((line) => {
        const at = line.indexOf(secret);
        return line.slice(Math.max(0, at - 200), at + secret.length + 100).trimEnd();
      });
  }
}

/**
 * The logger `buildApp` gives production (src/app.ts: the configured level, the same redaction
 * paths), writing to `stream`. Fastify hands `stream` to pino as its destination; pino's own
 * options type does not declare it, hence the intersection.
 */
export function productionLogger(
  level: string,
  stream: CapturedLog,
): LoggerOptions & { stream: DestinationStream } {
  return {
    level,
    redact: ["req.headers.authorization", 'req.headers["x-api-key"]'],
    stream,
  };
}
