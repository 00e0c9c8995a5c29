import type { Dispatcher } from "undici";
import { whenAborted } from "../../util/abort-listeners.js";

/** Response headers as undici gives them. */
export type ReplyHeaders = Record<string, string | string[] | undefined>;

/** A reply read whole; `text` is null when its body was not wanted (see `readWhole`). */
export interface WholeReply {
  statusCode: number;
  headers: ReplyHeaders;
  text: string | null;
}

/**
 * The exchange failed: before the reply's headers arrived (`statusCode` null), or while the body
 * of a reply with that status was read.
 */
export class ExchangeError extends Error {
  constructor(
    readonly reason: unknown,
    readonly statusCode: number | null,
  ) {
    super("the exchange with the model server failed", { cause: reason });
  }
}

/** Stops reading a reply whose body was not wanted; never reaches the caller. */
const NOT_WANTED = new Error("reply body not wanted");

/**
 * Sends one request and reads its reply into memory, straight from undici's dispatcher: no
 * response stream and no body mixin, which cost a non-streamed completion more than all the rest
 * of the upstream call. `wantsBody` sees the status and headers first; when it declines, the
 * connection is closed without reading the body (it may be large, or never end). Rejects with
 * an `ExchangeError`; an aborted `signal` aborts the exchange with the signal's reason.
 */
export function readWhole(
  dispatcher: Dispatcher,
  options: Dispatcher.DispatchOptions,
  signal: AbortSignal | undefined,
  wantsBody: (statusCode: number, headers: ReplyHeaders) => boolean,
): Promise<WholeReply> {
  return new Promise<WholeReply>((resolve, reject) => {
    if (signal?.aborted) {
      reject(new ExchangeError(signal.reason, null));
      return;
    }
    let controller: Dispatcher.DispatchController | null = null;
    let reply: WholeReply | null = null;
    const chunks: Buffer[] = [];
    let settled = false;
    const stopListening = signal
      ? whenAborted(signal, () => controller?.abort(signal.reason))
      : null;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      stopListening?.();
      outcome();
    };
    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(started) {
        controller = started;
        if (signal?.aborted) started.abort(signal.reason);
      },
      onResponseStart(started, statusCode, headers) {
        reply = { statusCode, headers, text: null };
        if (!wantsBody(statusCode, headers)) {
          const unread = reply;
          finish(() => resolve(unread));
          started.abort(NOT_WANTED);
        }
      },
      onResponseData(_controller, chunk) {
        chunks.push(chunk);
      },
      onResponseEnd() {
        const whole = reply;
        if (!whole) return;
        whole.text = utf8Text(chunks);
        finish(() => resolve(whole));
      },
      onResponseError(_controller, error) {
        const statusCode = reply?.statusCode ?? null;
        finish(() => reject(new ExchangeError(error, statusCode)));
      },
    };
    try {
      dispatcher.dispatch(options, handler);
    } catch (error) {
      finish(() => reject(new ExchangeError(error, null)));
    }
  });
}

/** The body's text; a body that came in one chunk is not copied first. */
function utf8Text(chunks: Buffer[]): string {
  return chunks.length === 1
    ? (chunks[0] as Buffer).toString("utf8")
    : Buffer.concat(chunks).toString("utf8");
}
