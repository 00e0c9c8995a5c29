import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import {
  ChatCompletionRequestSchema,
  ChatMessageSchema,
  ResearchOptionsSchema,
} from "../completions/schema.js";
import type { BatchError } from "./batch-object.js";

export const BATCH_ENDPOINT = "/v1/chat/completions";

export type LineVerdict =
  | { valid: true; customId: string; model: string; body: Record<string, unknown> }
  | { valid: false; errors: BatchError[] };

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

let requestValidator: ValidateFunction | null = null;

/**
 * The same request schema the chat route validates with, defaults applied. Compiled once per
 * process: compiling takes about 250 ms of the event loop, and batch creation and validation
 * each check a file. The function keeps no state between calls but `errors`, read at once.
 */
function compiledRequestValidator(): ValidateFunction {
  if (requestValidator) return requestValidator;
  const ajv = addFormats.default(
    new Ajv({ allErrors: true, strict: false, useDefaults: true, coerceTypes: false }),
  );
  ajv.addSchema(ChatMessageSchema);
  ajv.addSchema(ResearchOptionsSchema);
  requestValidator = ajv.compile(ChatCompletionRequestSchema);
  return requestValidator;
}

/**
 * Checks the lines of one batch input file, one at a time: shape, endpoint, model, streaming,
 * and across lines unique `custom_id`s and a single model. Problems use OpenAI's codes.
 */
export class LineValidator {
  private readonly validateBody = compiledRequestValidator();
  private readonly seen = new Map<string, number>();
  private model: string | null = null;

  constructor(private readonly knownModel: (id: string) => boolean) {}

  get batchModel(): string | null {
    return this.model;
  }

  check(lineNumber: number, text: string | null): LineVerdict {
    const fail = (code: string, message: string, param: string | null = null): LineVerdict => ({
      valid: false,
      errors: [{ code, message, param, line: lineNumber }],
    });
    if (text === null) return fail("invalid_json_line", "This line is longer than 16 MB.");
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return fail("invalid_json_line", "This line is not parseable as valid JSON.");
    }
    if (!isObject(parsed)) {
      return fail("invalid_json_line", "This line is valid JSON but not a JSON object.");
    }
    const errors: BatchError[] = [];
    const add = (code: string, message: string, param: string | null) =>
      errors.push({ code, message, param, line: lineNumber });

    const customId = this.checkCustomId(parsed.custom_id, lineNumber, add);
    this.checkMethodAndUrl(parsed, add);
    const body = parsed.body;
    if (body === undefined) {
      add("missing_required_parameter", "Missing required parameter: 'body'.", "body");
    } else if (!isObject(body)) {
      add("invalid_request", "'body' must be a JSON object: the chat completion request.", "body");
    } else {
      this.checkBody(body, add);
    }
    if (errors.length > 0 || customId === null || !isObject(body)) {
      return { valid: false, errors };
    }
    return { valid: true, customId, model: String(body.model), body };
  }

  private checkCustomId(
    value: unknown,
    lineNumber: number,
    add: (code: string, message: string, param: string | null) => void,
  ): string | null {
    if (value === undefined || value === null) {
      add("missing_required_parameter", "Missing required parameter: 'custom_id'.", "custom_id");
      return null;
    }
    if (typeof value !== "string" || value.length === 0) {
      add("invalid_request", "'custom_id' must be a non-empty string.", "custom_id");
      return null;
    }
    if (value.includes("\u0000")) {
      add("invalid_request", "'custom_id' must not contain the NUL character.", "custom_id");
      return null;
    }
    const first = this.seen.get(value);
    if (first !== undefined) {
      add(
        "duplicate_custom_id",
        `The custom_id '${value}' is already used on line ${first}; each custom_id must be unique within a batch.`,
        "custom_id",
      );
      return null;
    }
    this.seen.set(value, lineNumber);
    return value;
  }

  private checkMethodAndUrl(
    line: Json,
    add: (code: string, message: string, param: string | null) => void,
  ): void {
    if (line.method === undefined) {
      add("missing_required_parameter", "Missing required parameter: 'method'.", "method");
    } else if (line.method !== "POST") {
      add("invalid_method", "'method' must be 'POST'.", "method");
    }
    if (line.url === undefined) {
      add("missing_required_parameter", "Missing required parameter: 'url'.", "url");
    } else if (line.url !== BATCH_ENDPOINT) {
      add(
        "invalid_url",
        `'url' must be '${BATCH_ENDPOINT}', the batch's endpoint; got ${JSON.stringify(line.url)}.`,
        "url",
      );
    }
  }

  private checkBody(
    body: Json,
    add: (code: string, message: string, param: string | null) => void,
  ): void {
    if (body.stream === true) {
      add(
        "streaming_unsupported",
        "Batch requests cannot be streamed: remove 'stream'.",
        "body.stream",
      );
    }
    const model = body.model;
    if (typeof model !== "string" || model.length === 0) {
      add("invalid_request", "Missing required parameter: 'body.model'.", "body.model");
    } else if (!this.knownModel(model)) {
      add(
        "model_not_found",
        `The model '${model}' does not exist. GET /v1/models lists the available models.`,
        "body.model",
      );
    } else if (this.model === null) {
      this.model = model;
    } else if (model !== this.model) {
      add(
        "mismatched_model",
        `Every request of a batch must use the same model: this line uses '${model}', earlier lines '${this.model}'.`,
        "body.model",
      );
    }
    if (!this.validateBody(body)) {
      const reported = new Set(["body.model", "body.stream"]);
      for (const error of this.validateBody.errors ?? []) {
        if (error.keyword === "anyOf" || error.keyword === "oneOf") continue;
        const problem = describeSchemaError(error);
        // A union reports every branch; one message per parameter is enough.
        if (reported.has(problem.param)) continue;
        reported.add(problem.param);
        add("invalid_request", problem.message, problem.param);
      }
    }
  }
}

function describeSchemaError(error: ErrorObject): { message: string; param: string } {
  const path = error.instancePath
    .split("/")
    .filter(Boolean)
    .map((segment) => (/^\d+$/.test(segment) ? `[${segment}]` : `.${segment}`))
    .join("");
  const params = error.params as Record<string, unknown>;
  if (error.keyword === "required") {
    const param = `body${path}.${String(params.missingProperty)}`;
    return { param, message: `Missing required parameter: '${param}'.` };
  }
  const param = `body${path}`;
  return { param, message: `Invalid '${param}': ${error.message ?? "invalid value"}.` };
}
