import { describe, expect, it } from "vitest";
import {
  JsonRpcError,
  type JsonRpcTransport,
  nodeLookup,
} from "../../src/payments/chain/json-rpc.js";

function nodeFailingWith(error: Error): JsonRpcTransport {
  return {
    call: async () => {
      throw error;
    },
  };
}

describe("a lookup on the chain node", () => {
  it("returns the node's answer", async () => {
    const node: JsonRpcTransport = { call: async (method, params) => ({ method, params }) };
    expect(await nodeLookup(node, "eth_chainId", [1])).toEqual({
      method: "eth_chainId",
      params: [1],
    });
  });

  it("turns a JSON-RPC error into an unavailable verifier (503), not a failed payment", async () => {
    const lookup = nodeLookup(
      nodeFailingWith(new JsonRpcError(-32000, "header not found")),
      "eth_getLogs",
      [],
    );
    await expect(lookup).rejects.toMatchObject({
      name: "ServiceError",
      code: "payment_verifier_unavailable",
      message: "The chain node could not be reached: eth_getLogs failed: header not found",
    });
  });

  it("lets any other error through as it is", async () => {
    const failure = new TypeError("bug");
    await expect(nodeLookup(nodeFailingWith(failure), "eth_blockNumber", [])).rejects.toBe(failure);
  });
});
