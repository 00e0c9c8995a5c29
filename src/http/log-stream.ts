import type { DestinationStream } from "pino";
import { destination } from "pino";

/** Text held before it is written at once, whatever the turn: bounds the memory a burst takes. */
const MOST_HELD_CHARACTERS = 64 * 1024;

/**
 * A log destination that writes the lines of one turn of the event loop together, in one write
 * at the turn's end, to the file descriptor `fd`. Under load a turn answers many requests, and
 * one write a request (the access line) cost more than building the line. Lines still go out
 * as their turn ends, so a reader sees them at once; those held when the process exits are
 * written before it does. Only a kill that ends the process mid-turn loses that turn's lines.
 */
export function turnBatchedLog(fd: number): DestinationStream {
  // Synchronous: a line is in the file when the write returns, and a full pipe is waited for.
  const out = destination({ dest: fd, sync: true });
  let held = "";
  const flush = () => {
    if (held === "") return;
    const text = held;
    held = "";
    out.write(text);
  };
  process.on("exit", flush);
  return {
    write(line: string) {
      if (held === "") setImmediate(flush);
      held += line;
      if (held.length >= MOST_HELD_CHARACTERS) flush();
    },
  };
}

let stdoutLog: DestinationStream | undefined;

/** The process's standard output as a turn-batched log, one for every app in the process. */
export function standardOutputLog(): DestinationStream {
  stdoutLog ??= turnBatchedLog(1);
  return stdoutLog;
}
