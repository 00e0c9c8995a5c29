import type { ErrorObject, ValidateFunction } from "ajv";

/**
 * Requests with more values than this are checked only up to their first problem. Listing every
 * problem makes Ajv walk every element and build an error object for each bad one: a body of
 * 100,000 numbers where strings belong took 1.6 s and answered with 10 MB.
 */
const FULLY_CHECKED_VALUES = 10_000;

/** The keyword of the error that says checking stopped at the first problem. */
export const CHECKING_STOPPED = "checkingStopped";

type DataContext = Parameters<ValidateFunction>[1];

export interface BoundedValidator {
  (data: unknown, context?: DataContext): boolean;
  errors?: ErrorObject[] | null;
  /** Fastify passes the parent only to Ajv functions (those with this), so a root can be coerced. */
  schemaEnv: ValidateFunction["schemaEnv"];
}

/**
 * Validates with `firstProblem` (Ajv without `allErrors`, which stops at the first problem, so
 * a valid or huge request costs one walk at most) and, only when that fails on a request small
 * enough, runs `everyProblem` to list them all, as FastAPI does. Both are compiled once, when
 * first asked for.
 */
export function boundedValidator(
  firstProblem: () => ValidateFunction,
  everyProblem: () => ValidateFunction,
): BoundedValidator {
  const validate = ((data: unknown, context?: DataContext): boolean => {
    const first = firstProblem();
    if (first(data, context)) {
      validate.errors = null;
      return true;
    }
    if (hasAtMostValues(data, FULLY_CHECKED_VALUES)) {
      const thorough = everyProblem();
      validate.errors = thorough(data, context) ? first.errors : thorough.errors;
    } else {
      validate.errors = [...(first.errors ?? []), checkingStopped()];
    }
    return false;
  }) as BoundedValidator;
  Object.defineProperty(validate, "schemaEnv", { get: () => firstProblem().schemaEnv });
  return validate;
}

function checkingStopped(): ErrorObject {
  return {
    keyword: CHECKING_STOPPED,
    instancePath: "",
    schemaPath: "#",
    params: { limit: FULLY_CHECKED_VALUES },
    message: `checking stopped at the first problem: the request holds more than ${FULLY_CHECKED_VALUES} values`,
  };
}

/** Counts values (containers and what they hold) until `limit` is passed. */
function hasAtMostValues(data: unknown, limit: number): boolean {
  const pending: unknown[] = [data];
  let counted = 0;
  while (pending.length > 0) {
    const value = pending.pop();
    counted++;
    if (value === null || typeof value !== "object") continue;
    const children = Array.isArray(value) ? value : Object.values(value);
    if (counted + pending.length + children.length > limit) return false;
    pending.push(...children);
  }
  return true;
}
