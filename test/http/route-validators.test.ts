import { describe, expect, it } from "vitest";
import { createRouteValidators } from "../../src/http/validation.js";

const NUMBER_BODY = {
  schema: { type: "object", properties: { n: { type: "number" } } },
  httpPart: "body",
};
/** A schema Ajv refuses to compile: what compiling at the wrong moment would show. */
const BROKEN = { schema: { type: "no such type" }, httpPart: "body" };

describe("route validators", () => {
  it("compile a route's schema when it first validates, not when the route is registered", () => {
    const validators = createRouteValidators(() => ({}));
    const broken = validators.compiler(BROKEN);
    const numbers = validators.compiler(NUMBER_BODY);
    expect(numbers({ n: 1 })).toBe(true);
    expect(numbers({ n: "1" })).toBe(false);
    expect(() => broken({})).toThrow(/schema is invalid/);
  });

  it("compile every schema handed out when asked to, as a server does before it listens", () => {
    const validators = createRouteValidators(() => ({}));
    validators.compiler(NUMBER_BODY);
    validators.compiler(BROKEN);
    expect(() => validators.compileAll()).toThrow(/schema is invalid/);
  });
});
