import { APIError } from "openai";

/** The SDK error a call fails with; fails the test when the call succeeds or fails otherwise. */
export async function rejection(promise: Promise<unknown>): Promise<APIError> {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof APIError)) throw new Error(`expected an API error, got ${error}`);
  return error;
}
