import type { Json } from "./env.js";
import type { OpenAISchemas } from "./openai-schemas.js";

/**
 * The envelope of a batch output or error line. OpenAI's description published it as
 * `BatchRequestOutput` until June 2025 (openai/openai-openapi e1cb7a8 removed it) and its Batch
 * guide still documents it: `{id, custom_id, response: {status_code, request_id, body} | null,
 * error: {code, message} | null}`. The body is checked against the current description: a chat
 * completion for status 200, an error body otherwise.
 */
export function batchLineProblems(schemas: OpenAISchemas, line: Json): string[] {
  const problems: string[] = [];
  const expectString = (value: unknown, where: string) => {
    if (typeof value !== "string") problems.push(`${where} must be a string`);
  };
  const only = (value: unknown, keys: string[], where: string) => {
    if (typeof value !== "object" || value === null) return;
    for (const key of keys) {
      if (!(key in value)) problems.push(`${where} must have required property '${key}'`);
    }
    for (const key of Object.keys(value)) {
      if (!keys.includes(key)) problems.push(`${where} must NOT have property '${key}'`);
    }
  };
  only(line, ["id", "custom_id", "response", "error"], "(line)");
  expectString(line.id, "/id");
  expectString(line.custom_id, "/custom_id");
  const { response, error } = line as { response: unknown; error: unknown };
  if ((response === null) === (error === null)) {
    problems.push("exactly one of /response and /error must be set");
  }
  if (response !== null && response !== undefined) {
    only(response, ["status_code", "request_id", "body"], "/response");
    const { status_code, request_id, body } = response as Json;
    if (!Number.isInteger(status_code)) problems.push("/response/status_code must be an integer");
    expectString(request_id, "/response/request_id");
    const component = status_code === 200 ? "CreateChatCompletionResponse" : "ErrorResponse";
    problems.push(
      ...schemas.problems(component, body).map((problem) => `/response/body${problem}`),
    );
  }
  if (error !== null && error !== undefined) {
    only(error, ["code", "message"], "/error");
    expectString((error as Json).code, "/error/code");
    expectString((error as Json).message, "/error/message");
  }
  return problems;
}
