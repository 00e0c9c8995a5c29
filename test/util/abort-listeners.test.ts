import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { whenAborted } from "../../src/util/abort-listeners.js";

describe("whenAborted", () => {
  it("puts one listener on a signal however many calls wait on it", () => {
    const controller = new AbortController();
    const stops = Array.from({ length: 50 }, () => whenAborted(controller.signal, () => {}));
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(1);
    for (const stop of stops) stop();
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(1);
  });

  it("calls each listener still waiting once, and none that stopped", () => {
    const controller = new AbortController();
    const calls: string[] = [];
    whenAborted(controller.signal, () => calls.push("first"));
    const stopSecond = whenAborted(controller.signal, () => calls.push("second"));
    whenAborted(controller.signal, () => calls.push("third"));
    stopSecond();
    controller.abort();
    controller.abort();
    expect(calls).toEqual(["first", "third"]);
  });

  it("keeps each signal's listeners apart", () => {
    const one = new AbortController();
    const other = new AbortController();
    const calls: string[] = [];
    whenAborted(one.signal, () => calls.push("one"));
    whenAborted(other.signal, () => calls.push("other"));
    other.abort();
    expect(calls).toEqual(["other"]);
  });
});
