import type { FastifyInstance } from "fastify";
import { ServiceError } from "../errors.js";
import { InvalidJsonError } from "./validation.js";

/**
 * JSON bodies are parsed here so a syntax error becomes a FastAPI-shaped 422 that says where
 * (`loc: ["body", position]`), and an empty body reads as "missing".
 */
export function registerJsonBodyParser(app: FastifyInstance, bodyLimit: number): void {
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser(
    "application/json",
    { parseAs: "string", bodyLimit },
    (_request, body: string, done) => {
      if (body.trim() === "") {
        done(null, undefined);
        return;
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(body);
      } catch (error) {
        const message = (error as Error).message;
        done(new InvalidJsonError(message, errorPosition(message, body)), undefined);
        return;
      }
      done(unsafeStructure(parsed), parsed);
    },
  );
}

/** V8 names the position for most syntax errors; a truncated body ends where the text does. */
function errorPosition(message: string, body: string): number {
  const stated = /position (\d+)/.exec(message)?.[1];
  if (stated !== undefined) return Number(stated);
  return /end of JSON input/.test(message) ? body.length : 0;
}

/** Real requests nest a few levels; JSON.stringify overflows the stack a few thousand deep. */
const MAX_DEPTH = 256;

/**
 * Replacing Fastify's parser drops its prototype-poisoning guard; this restores it. A key
 * `__proto__` (or `constructor.prototype`) is harmless in the parsed object but changes an
 * object's prototype once code copies it by assignment (Object.assign, merges). Bodies nested
 * too deep to serialize again (in a reply, an upstream call) are refused too.
 */
function unsafeStructure(value: unknown): ServiceError | null {
  const pending: [unknown, number][] = [[value, 1]];
  while (pending.length > 0) {
    const [current, depth] = pending.pop() as [unknown, number];
    if (current === null || typeof current !== "object") continue;
    if (depth > MAX_DEPTH) {
      return new ServiceError(
        "invalid_request",
        `Request body is nested more than ${MAX_DEPTH} levels deep.`,
        { code: "json_too_deep" },
      );
    }
    if (Object.hasOwn(current, "__proto__")) return forbiddenKey("__proto__");
    const record = current as Record<string, unknown>;
    const ctor = Object.hasOwn(current, "constructor") ? record.constructor : null;
    if (ctor && typeof ctor === "object" && Object.hasOwn(ctor, "prototype")) {
      return forbiddenKey("constructor.prototype");
    }
    for (const child of Object.values(record)) pending.push([child, depth + 1]);
  }
  return null;
}

function forbiddenKey(key: string): ServiceError {
  return new ServiceError("invalid_request", `Request body contains the forbidden key "${key}".`, {
    code: "forbidden_json_key",
  });
}
