import { Ajv, type AnySchema, type ErrorObject, type Options, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import type { FastifySchemaValidationError } from "fastify/types/schema.js";

import { UNLISTED_PROBLEMS, type ValidationDetail } from "../error-responses.js";
import { type BoundedValidator, boundedValidator, CHECKING_STOPPED } from "./bounded-validator.js";
import { echoedInput } from "./echoed-input.js";
import { enumMessage } from "./enum-message.js";
import type { JsonSyntaxProblem } from "./json-syntax.js";

export type { ValidationDetail };

export type RequestPart = "body" | "query" | "path" | "header";

const BASE_OPTIONS: Options = {
  removeAdditional: false,
  useDefaults: true,
  strict: false,
  discriminator: true,
};

/** Most problems a 422 lists one by one; a last entry says how many more there were. */
const LISTED_PROBLEMS = 20;

/** One Ajv that stops at the first problem and one that finds them all, sharing the schemas. */
interface AjvPair {
  firstProblem: Ajv;
  everyProblem: Ajv;
}

/** Fastify's validator compiler, and a way to compile what it handed out ahead of requests. */
export interface RouteValidators {
  compiler: (route: { schema: object; httpPart?: string }) => BoundedValidator;
  /**
   * Compiles every route's validator now. Otherwise each compiles on its route's first request,
   * which then holds the event loop for it (a chat completion's: ~100 ms): a server compiles
   * them before it listens, while a test's server skips the routes it never calls.
   */
  compileAll(): void;
}

/**
 * Bodies are validated as sent (a string is never a number); query strings, path and headers are
 * text on the wire and are coerced. The validators are built on first use, by then every shared
 * `$id` schema has been added to the app.
 */
export function createRouteValidators(
  sharedSchemas: () => Record<string, unknown>,
): RouteValidators {
  let validators: { body: AjvPair; text: AjvPair } | null = null;
  const pair = (options: Options): AjvPair => {
    const make = (allErrors: boolean) => {
      const ajv = addFormats.default(new Ajv({ ...BASE_OPTIONS, ...options, allErrors }));
      for (const schema of Object.values(sharedSchemas())) ajv.addSchema(schema as AnySchema);
      return ajv;
    };
    return { firstProblem: make(false), everyProblem: make(true) };
  };
  const validatorsFor = (httpPart: string | undefined): AjvPair => {
    validators ??= { body: pair({ coerceTypes: false }), text: pair({ coerceTypes: "array" }) };
    return httpPart === "body" ? validators.body : validators.text;
  };
  const compiles: (() => ValidateFunction)[] = [];
  return {
    compiler: ({ schema, httpPart }) => {
      let first: ValidateFunction | undefined;
      // The thorough one is compiled on the first invalid request only: most schemas never need it.
      let thorough: ValidateFunction | undefined;
      const firstProblem = () => (first ??= validatorsFor(httpPart).firstProblem.compile(schema));
      compiles.push(firstProblem);
      return boundedValidator(
        firstProblem,
        () => (thorough ??= validatorsFor(httpPart).everyProblem.compile(schema)),
      );
    },
    compileAll: () => {
      for (const compile of compiles) compile();
    },
  };
}

export function partName(context: string | undefined): RequestPart {
  switch (context) {
    case "querystring":
      return "query";
    case "params":
      return "path";
    case "headers":
      return "header";
    default:
      return "body";
  }
}

type AjvError = ErrorObject | FastifySchemaValidationError;

/**
 * Turns ajv's errors into FastAPI's shape, one entry per problem, unions folded to one line. At
 * most LISTED_PROBLEMS are described; a last entry counts the rest, or says checking stopped.
 */
export function toValidationDetails(
  errors: AjvError[],
  part: RequestPart,
  data: unknown,
): ValidationDetail[] {
  const byPath = new Map<string, AjvError[]>();
  let stopped = false;
  for (const error of errors) {
    if (error.keyword === CHECKING_STOPPED) {
      stopped = true;
      continue;
    }
    const group = byPath.get(error.instancePath) ?? [];
    group.push(error);
    byPath.set(error.instancePath, group);
  }
  const problems: { error: AjvError; instancePath: string }[] = [];
  for (const [instancePath, group] of byPath) {
    for (const error of foldUnion(group)) problems.push({ error, instancePath });
  }
  const details = problems.slice(0, LISTED_PROBLEMS).map(({ error, instancePath }) => {
    const detail = describe(error, instancePath, part, data);
    return { ...detail, input: echoedInput(detail.input) };
  });
  const unlisted = problems.length - details.length;
  if (unlisted > 0 || stopped) details.push(unlistedProblems(part, unlisted, stopped));
  return details;
}

function unlistedProblems(part: RequestPart, unlisted: number, stopped: boolean): ValidationDetail {
  return {
    loc: [part],
    msg: stopped
      ? "Checking stopped at the first problem: the request is too large to list every one"
      : `${unlisted} more problems not listed`,
    type: UNLISTED_PROBLEMS,
    input: null,
    ctx: { unlisted, checked_all: !stopped },
  };
}

/**
 * `anyOf` failures report every branch; keep the errors that say something beyond "wrong type"
 * (a too-long list, a value out of range), else the allowed literals, else the first non-null
 * type mismatch.
 */
function foldUnion(group: AjvError[]): AjvError[] {
  if (!group.some((e) => e.keyword === "anyOf" || e.keyword === "oneOf")) return group;
  const branches = group.filter((e) => e.keyword !== "anyOf" && e.keyword !== "oneOf");
  const specific = branches.filter((e) => e.keyword !== "type" && e.keyword !== "const");
  if (specific.length > 0) return stringShapes(specific) ?? specific;
  const literals = branches.filter((e) => e.keyword === "const");
  if (literals.length > 0) {
    // A union of literals is an enum: name every allowed value.
    const allowedValues = literals.map((e) => (e.params as { allowedValue: unknown }).allowedValue);
    return [{ ...(literals[0] as AjvError), keyword: "enum", params: { allowedValues } }];
  }
  const typed = branches.find((e) => e.keyword === "type" && e.params.type !== "null");
  return [typed ?? (group[0] as AjvError)];
}

/** What a value of each string format looks like, for a message naming the formats a union takes. */
const FORMAT_EXAMPLES: Record<string, string> = {
  "date-time": "2026-03-01T12:00:00Z",
  date: "2026-03-01",
};

/**
 * A string that fits none of a union's formats and patterns (e.g. a date or a date-time) is one
 * problem, not one per branch: a single format error naming every format, with examples. The
 * patterns are variants of those formats, described by the schema's documentation.
 */
function stringShapes(specific: AjvError[]): AjvError[] | null {
  if (!specific.every((e) => e.keyword === "format" || e.keyword === "pattern")) return null;
  const formats = [
    ...new Set(specific.flatMap((e) => (e.keyword === "format" ? [String(e.params.format)] : []))),
  ];
  if (formats.length === 0 || specific.length < 2) return null;
  const examples = formats.flatMap((format) => FORMAT_EXAMPLES[format] ?? []);
  const named = formats.join(" or ");
  const format = examples.length > 0 ? `${named} (e.g. ${examples.join(" or ")})` : named;
  return [{ ...(specific[0] as AjvError), keyword: "format", params: { format } }];
}

function pathSegments(instancePath: string): (string | number)[] {
  if (!instancePath) return [];
  return instancePath
    .slice(1)
    .split("/")
    .map((raw) => raw.replaceAll("~1", "/").replaceAll("~0", "~"))
    .map((segment) => (/^\d+$/.test(segment) ? Number(segment) : segment));
}

function valueAt(data: unknown, segments: (string | number)[]): unknown {
  let current = data;
  for (const segment of segments) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<string | number, unknown>)[segment];
  }
  return current;
}

const TYPE_NAMES: Record<string, [string, string]> = {
  string: ["string_type", "Input should be a valid string"],
  integer: ["int_type", "Input should be a valid integer"],
  number: ["float_type", "Input should be a valid number"],
  boolean: ["bool_type", "Input should be a valid boolean"],
  object: ["dict_type", "Input should be a valid dictionary or object"],
  array: ["list_type", "Input should be a valid list"],
  null: ["none_required", "Input should be null"],
};

function describe(
  error: AjvError,
  instancePath: string,
  part: RequestPart,
  data: unknown,
): ValidationDetail {
  const segments = pathSegments(instancePath);
  const loc: (string | number)[] = [part, ...segments];
  const input = valueAt(data, segments);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "required": {
      const field = String(params.missingProperty);
      return { loc: [...loc, field], msg: "Field required", type: "missing", input };
    }
    case "additionalProperties": {
      const field = String(params.additionalProperty);
      return {
        loc: [...loc, field],
        msg: "Extra inputs are not permitted",
        type: "extra_forbidden",
        input: valueAt(input, [field]),
      };
    }
    case "type": {
      const expected = String(params.type).split(",")[0] ?? "";
      const [type, msg] = TYPE_NAMES[expected] ?? ["type_error", `Input should be ${expected}`];
      return { loc, msg, type, input };
    }
    default:
      return (
        describeLimit(error.keyword, loc, input, params.limit) ??
        describeMismatch(error.keyword, loc, input, params) ?? {
          loc,
          input,
          type: "value_error",
          msg: error.message ?? "Invalid value",
        }
      );
  }
}

/** A value outside a schema's enum or const, or unlike its format or pattern; else null. */
function describeMismatch(
  keyword: string,
  loc: (string | number)[],
  input: unknown,
  params: Record<string, unknown>,
): ValidationDetail | null {
  switch (keyword) {
    case "enum": {
      const allowed = (params.allowedValues as unknown[]).map((v) => JSON.stringify(v));
      return {
        loc,
        input,
        type: "enum",
        msg: enumMessage(params.allowedValues as unknown[], input),
        ctx: { expected: allowed.join(", ") },
      };
    }
    case "const":
      return {
        loc,
        input,
        type: "literal_error",
        msg: `Input should be ${JSON.stringify(params.allowedValue)}`,
        ctx: { expected: JSON.stringify(params.allowedValue) },
      };
    case "format":
      return {
        loc,
        input,
        type: "value_error",
        msg: `Input should be a valid ${params.format}`,
        ctx: { format: params.format },
      };
    case "pattern":
      return {
        loc,
        input,
        type: "string_pattern_mismatch",
        msg: `String should match pattern '${params.pattern}'`,
        ctx: { pattern: params.pattern },
      };
    default:
      return null;
  }
}

/** A value, length or item count beyond a schema's limit; null for any other keyword. */
function describeLimit(
  keyword: string,
  loc: (string | number)[],
  input: unknown,
  limit: unknown,
): ValidationDetail | null {
  switch (keyword) {
    case "minimum":
      return bound(loc, input, "greater_than_equal", "greater than or equal to", "ge", limit);
    case "maximum":
      return bound(loc, input, "less_than_equal", "less than or equal to", "le", limit);
    case "exclusiveMinimum":
      return bound(loc, input, "greater_than", "greater than", "gt", limit);
    case "exclusiveMaximum":
      return bound(loc, input, "less_than", "less than", "lt", limit);
    case "minLength":
      return lengthBound(loc, input, "string_too_short", "String", "character", "least", limit);
    case "maxLength":
      return lengthBound(loc, input, "string_too_long", "String", "character", "most", limit);
    case "minItems":
      return lengthBound(loc, input, "too_short", "List", "item", "least", limit);
    case "maxItems":
      return lengthBound(loc, input, "too_long", "List", "item", "most", limit);
    default:
      return null;
  }
}

function bound(
  loc: (string | number)[],
  input: unknown,
  type: string,
  words: string,
  key: string,
  limit: unknown,
): ValidationDetail {
  return { loc, input, type, msg: `Input should be ${words} ${limit}`, ctx: { [key]: limit } };
}

/** A request body that is not JSON; reported as FastAPI's `json_invalid`. */
export class InvalidJsonError extends Error {
  readonly position: number;

  constructor(readonly where: JsonSyntaxProblem) {
    super(`${where.problem} at line ${where.line}, column ${where.column}`);
    this.name = "InvalidJsonError";
    this.position = where.offset;
  }

  toDetail(): ValidationDetail {
    return {
      loc: ["body", this.position],
      msg: "JSON decode error",
      type: "json_invalid",
      input: {},
      ctx: { error: this.where.problem, line: this.where.line, column: this.where.column },
    };
  }
}

function lengthBound(
  loc: (string | number)[],
  input: unknown,
  type: string,
  subject: "String" | "List",
  unit: string,
  side: "least" | "most",
  limit: unknown,
): ValidationDetail {
  const plural = limit === 1 ? "" : "s";
  return {
    loc,
    input,
    type,
    msg: `${subject} should have at ${side} ${limit} ${unit}${plural}`,
    ctx: { [side === "least" ? "min_length" : "max_length"]: limit },
  };
}
