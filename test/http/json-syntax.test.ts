import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findJsonSyntaxProblem } from "../../src/http/json-syntax.js";
import { buildValidationApp } from "../support/validation-app.js";

/** Characters that matter to JSON's grammar, and some that people type by mistake. */
const SIGNIFICANT = [
  ..."{}[]:,\"'\\-+.0123456789eEtrufalsn \n\t\r/u",
  "\u0000",
  "\u00e9",
  "\ufeff",
];

const mutation = fc.oneof(
  fc.record({ kind: fc.constant("insert"), at: fc.nat(), char: fc.constantFrom(...SIGNIFICANT) }),
  fc.record({ kind: fc.constant("delete"), at: fc.nat(), char: fc.constant("") }),
  fc.record({ kind: fc.constant("truncate"), at: fc.nat(), char: fc.constant("") }),
);

function mutate(text: string, mutations: { kind: string; at: number; char: string }[]): string {
  let result = text;
  for (const { kind, at, char } of mutations) {
    const index = result.length === 0 ? 0 : at % (result.length + 1);
    if (kind === "insert") result = result.slice(0, index) + char + result.slice(index);
    if (kind === "delete") result = result.slice(0, index) + result.slice(index + 1);
    if (kind === "truncate") result = result.slice(0, index);
  }
  return result;
}

const parses = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

describe("the JSON syntax locator", () => {
  it("finds nothing wrong in any JSON, however it is laid out", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(0, 1, 2, "\t", " \n "), (value, indent) => {
        expect(findJsonSyntaxProblem(JSON.stringify(value, null, indent))).toBeNull();
      }),
      { numRuns: 500 },
    );
  });

  it("agrees with JSON.parse on damaged JSON and places the problem inside the text", () => {
    fc.assert(
      fc.property(
        fc.jsonValue({ maxDepth: 4 }),
        fc.array(mutation, { minLength: 1, maxLength: 3 }),
        (value, mutations) => {
          const text = mutate(JSON.stringify(value, null, 1), mutations);
          const found = findJsonSyntaxProblem(text);
          expect(found === null).toBe(parses(text));
          if (found === null) return;
          expect(found.offset).toBeGreaterThanOrEqual(0);
          expect(found.offset).toBeLessThanOrEqual(text.length);
          const before = text.slice(0, found.offset).split("\n");
          expect(found.line).toBe(before.length);
          expect(found.column).toBe((before.at(-1) as string).length + 1);
          // Everything before the problem is a prefix some JSON text could continue.
          expect(findJsonSyntaxProblem(text.slice(0, found.offset))?.offset ?? found.offset).toBe(
            found.offset,
          );
        },
      ),
      { numRuns: 3000 },
    );
  });

  it("scans nesting of any depth without running out of stack", () => {
    const deep = "[".repeat(300_000);
    expect(findJsonSyntaxProblem(deep)).toMatchObject({ offset: 300_000 });
    expect(findJsonSyntaxProblem(`${deep}${"]".repeat(300_000)}`)).toBeNull();
  });

  it.each([
    ['{"a": 1,}', 8, "a trailing comma before '}' is not allowed in JSON"],
    ["[1, 2,]", 6, "a trailing comma before ']' is not allowed in JSON"],
    ["{'a': 1}", 1, "property names take double quotes in JSON, not single quotes"],
    ["{\"a\": 'x'}", 6, "strings take double quotes in JSON, not single quotes"],
    ["{a: 1}", 1, "expected a property name in double quotes, found 'a'"],
    ['{"a" 1}', 5, "expected ':' after the property name, found '1'"],
    ['{"a": 1 "b": 2}', 8, "expected ',' or '}' after a property value, found '\"'"],
    ['{"a": undefined}', 6, 'unexpected word "undefined" where a value was expected'],
    ['{"a": "x\ny"}', 8, "a line break inside a string must be escaped"],
    ['{"a": 01}', 7, "numbers cannot have leading zeros in JSON"],
    ['{"a": "\\q"}', 7, '"\\q" is not a JSON escape'],
    ['{"a": [1, 2}', 11, "expected ',' or ']' after an array element, found '}'"],
    ['{"a": {"b": 1}', 14, "the body ends where more was expected (1 unclosed: missing '}')"],
    ['{"a": 1} x', 9, "unexpected 'x' after the end of the JSON value"],
  ])("explains %j at offset %i", (text, offset, problem) => {
    const found = findJsonSyntaxProblem(text);
    expect(found?.offset).toBe(offset);
    expect(found?.problem).toContain(problem);
    expect(parses(text)).toBe(false);
  });
});

describe("a request whose body is not JSON", () => {
  let baseUrl: string;
  let close: () => Promise<void>;

  beforeAll(async () => {
    const app = await buildValidationApp(64 * 1024);
    await app.listen({ host: "127.0.0.1", port: 0 });
    const address = app.server.address();
    baseUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
    close = () => app.close();
  });

  afterAll(async () => {
    await close?.();
  });

  it("gets a 422 saying what is wrong at which line and column", async () => {
    const body = '{\n  "name": "x",\n  "count": 3,\n}';
    const response = await fetch(`${baseUrl}/items`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    expect(response.status).toBe(422);
    const sent = (await response.json()) as {
      error: { message: string; param: string | null };
      detail: { loc: unknown[]; ctx: Record<string, unknown> }[];
    };
    expect(sent.error.message).toBe(
      "Request body is not valid JSON: a trailing comma before '}' is not allowed in JSON at line 4, column 1",
    );
    expect(sent.error.param).toBeNull();
    expect(sent.detail[0]).toMatchObject({
      loc: ["body", body.length - 1],
      ctx: { line: 4, column: 1 },
    });
  });
});
