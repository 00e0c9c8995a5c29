import type { FastifyInstance } from "fastify";
import { ServiceError } from "../errors.js";
import { findJsonSyntaxProblem } from "./json-syntax.js";
import { exceedsValueBudget, MAX_JSON_VALUES, tooManyValues } from "./json-value-budget.js";
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
      if (exceedsValueBudget(body, MAX_JSON_VALUES)) {
        done(tooManyValues(), undefined);
        return;
      }
      if (body.length <= YIELD_AFTER_CHARACTERS) {
        parse(body, done);
        return;
      }
      // A large body's receipt and scan, its parse, and what follows it (validation, counting,
      // the model call) each get a turn of their own, so no two of them hold the event loop
      // together.
      setImmediate(() => parse(body, (failure, parsed) => setImmediate(done, failure, parsed)));
    },
  );
}

type ParseDone = (failure: Error | null, parsed: unknown) => void;

function parse(body: string, done: ParseDone): void {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch (error) {
    done(invalidJson(body, error as Error), undefined);
    return;
  }
  done(unsafeStructure(parsed), parsed);
}

/** Where and why the body is not JSON, from our own scan (V8's wording varies by version). */
function invalidJson(body: string, error: Error): InvalidJsonError {
  const found = findJsonSyntaxProblem(body);
  // JSON.parse and the scan disagree only on a bug in the scan: V8's message still helps.
  const problem = found ?? { offset: 0, line: 1, column: 1, problem: error.message };
  return new InvalidJsonError(problem);
}

/** Bodies received, scanned and parsed in a few milliseconds go on at once. */
const YIELD_AFTER_CHARACTERS = 1_000_000;

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
