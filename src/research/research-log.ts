import type { ResearchLog } from "./research.js";

const LEVELS: Record<string, number> = {
  trace: 10,
  debug: 20,
  info: 30,
  warn: 40,
  error: 50,
  fatal: 60,
  silent: Number.POSITIVE_INFINITY,
};

/**
 * Research's log lines as pino writes them (one JSON object a line, numeric level), at or above
 * the configured `server.log_level`, on stderr: services are built before the HTTP logger.
 */
export function stderrResearchLog(
  level: string,
  write: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): ResearchLog {
  const threshold = LEVELS[level] ?? LEVELS.info;
  const line = (value: number, details: object, message: string) => {
    if (value < (threshold as number)) return;
    write(JSON.stringify({ level: value, time: Date.now(), msg: message, ...details }));
  };
  return {
    warn: (details, message) => line(40, details, message),
    debug: (details, message) => line(20, details, message),
  };
}
