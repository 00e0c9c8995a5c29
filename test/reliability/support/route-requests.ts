import * as fc from "fast-check";
import { batchCreateBody } from "../../support/owned-objects.js";
import type { Keys } from "./arbitraries/headers.js";
import { multipartUploads } from "./arbitraries/multipart.js";
import type { KnownIds } from "./arbitraries/paths.js";
import type { SchemaGuide } from "./arbitraries/schema.js";
import { promptText } from "./arbitraries/values.js";
import { type FuzzRequest, printable } from "./fuzz-request.js";
import type { FuzzWorld } from "./fuzz-world.js";
import type { FuzzRoute } from "./routes.js";

/** A request body with the content type it is sent as. */
interface Body {
  contentType: string;
  body: string | Uint8Array;
}

/** Models belong to no organization. */
export const MODEL_IDS: KnownIds = { own: ["sibyl-baseline"], foreign: [] };

/** Every key the header arbitraries use, and the run's marker for made-up ones. */
export const keysOf = (world: FuzzWorld): Keys => ({
  caller: world.caller.apiKey,
  revoked: world.revoked.apiKey,
  stranger: world.stranger.apiKey,
  canary: world.secrets.canary,
});

/** The Authorization header of the organization making the requests. */
export const bearer = (world: FuzzWorld) => ({ authorization: `Bearer ${world.caller.apiKey}` });

/** Request schemas as /openapi.json has them, with valid values steered where it matters. */
export function guideFor(world: FuzzWorld): SchemaGuide {
  const prompt = promptText(world.secrets.canary);
  return {
    deref: (schema) => world.contract.deref(schema),
    hints: {
      content: prompt,
      prompt: fc.oneof(prompt, fc.array(prompt, { minLength: 1, maxLength: 3 })),
      model: fc.oneof(
        { weight: 8, arbitrary: fc.constant("sibyl-baseline") },
        { weight: 1, arbitrary: fc.constantFrom("SIBYL-BASELINE", "gpt-4o", "a/b", " ") },
      ),
      input_file_id: fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...world.files.own, ...world.files.foreign) },
        { weight: 1, arbitrary: fc.constantFrom("file-missing", "../../etc/passwd", "\u0000") },
      ),
    },
  };
}

/** A body the route accepts as it is. */
export function validBody(route: FuzzRoute, world: FuzzWorld): fc.Arbitrary<Body | null> {
  const json = (value: unknown) => ({
    contentType: "application/json",
    body: JSON.stringify(value),
  });
  const prompt = promptText(world.secrets.canary);
  switch (route.body) {
    case "ChatCompletionRequest":
      return prompt.map((content) =>
        json({ model: "sibyl-baseline", messages: [{ role: "user", content }] }),
      );
    case "CompletionRequest":
      return prompt.map((text) => json({ model: "sibyl-baseline", prompt: text }));
    case "ResponseCreateRequest":
      return prompt.map((text) => json({ model: "sibyl-baseline", input: text }));
    case "BatchCreateRequest":
      return fc.constantFrom(...world.files.own).map((id) => json(batchCreateBody(id)));
    case "ApiKeyCreateRequest":
      return fc.constantFrom("inference", "admin").map((scope) => json({ name: "fuzz", scope }));
    case "ApiKeyUpdateRequest":
      return fc
        .constantFrom(null, 5)
        .map((limit) => json({ name: "fuzz", spend_limit_usd: limit }));
    case "QuestionCreateRequest":
      return fc
        .tuple(fc.uuid(), prompt)
        .map(([id, text]) => json({ id: `fuzz-${id}`, text, answer_type: "binary" }));
    case "ResolutionRequest":
      return fc.constantFrom(0, 1).map((outcome) => json({ outcome }));
    case "CalibrationCreateRequest":
      return fc.constant(json({ model: "sibyl-baseline" }));
    case "multipart":
      return multipartUploads(world.secrets.canary);
    default:
      return fc.constant(null);
  }
}

/** The route's path with its placeholders naming the caller's own objects. */
export function ownPath(route: FuzzRoute, world: FuzzWorld): fc.Arbitrary<string> {
  return fc
    .record({
      file_id: fc.constantFrom(...world.files.own),
      batch_id: fc.constantFrom(...world.batches.own),
      key_id: fc.constantFrom(...world.keys.own),
      question_id: fc.constantFrom(...world.questions.own),
      calibration_id: fc.constantFrom(...world.calibrations.own),
      model_id: fc.constant("sibyl-baseline"),
      model_path: fc.constant("sibyl-baseline"),
    })
    .map((ids) => fill(route.path, ids));
}

/** A path with its `{placeholders}` replaced. */
export function fill(path: string, ids: Record<string, string>): string {
  return path.replaceAll(/\{(\w+)\}/g, (_match, name: string) => ids[name] ?? "");
}

/** A request with the body's content type, unless the headers name another. */
export function request(
  method: string,
  path: string,
  headers: Record<string, string>,
  body: Body | null,
): FuzzRequest {
  if (!body) return printable({ method, path, headers });
  return printable({
    method,
    path,
    headers: { "content-type": body.contentType, ...headers },
    body: body.body,
  });
}
