import type { Db } from "../db/database.js";
import { type FinishedLine, finishedLines } from "./line-queue.js";

const PAGE = 500;

/**
 * One output or error file line (OpenAI's shape). Lines that got an HTTP answer carry it in
 * `response`; lines that never ran carry `error` instead. Bodies are stored as JSON text and
 * spliced in as they are.
 */
export function formatResultLine(line: FinishedLine): string {
  const response =
    line.status_code === null
      ? "null"
      : `{"status_code":${line.status_code},"request_id":${JSON.stringify(line.response_request_id)},"body":${line.response_body ?? "null"}}`;
  const error =
    line.status_code === null
      ? JSON.stringify({ code: line.error_code, message: line.error_message })
      : "null";
  return `{"id":${JSON.stringify(line.request_id)},"custom_id":${JSON.stringify(line.custom_id)},"response":${response},"error":${error}}\n`;
}

/** The file's content, a page of lines at a time. */
export async function* resultFile(
  db: Db,
  batchId: string,
  status: "succeeded" | "failed",
): AsyncGenerator<Buffer> {
  let after = 0;
  for (;;) {
    const page = await finishedLines(db, batchId, status, after, PAGE);
    const last = page.at(-1);
    if (!last) return;
    yield Buffer.from(page.map(formatResultLine).join(""));
    after = last.line_number;
  }
}
