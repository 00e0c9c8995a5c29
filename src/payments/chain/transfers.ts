import { decodeEventLog, type Hex, isAddressEqual, parseAbi } from "viem";
import { isRecord } from "../credential.js";
import { isChallengeMemo } from "./attribution.js";

/** TIP-20's memo transfer event (ERC-20 `Transfer` plus an indexed bytes32 memo). */
export const TRANSFER_WITH_MEMO_ABI = parseAbi([
  "event TransferWithMemo(address indexed from, address indexed to, uint256 amount, bytes32 indexed memo)",
]);

/** The parts of an `eth_getTransactionReceipt` answer that decide a payment. */
export interface ChainReceipt {
  transactionHash: string;
  succeeded: boolean;
  from: string;
  logs: { address: string; topics: Hex[]; data: Hex }[];
}

/** Null when the node's answer is not a receipt. */
export function readReceipt(value: unknown): ChainReceipt | null {
  if (!isRecord(value)) return null;
  const { transactionHash, status, from, logs } = value;
  if (typeof transactionHash !== "string" || typeof from !== "string" || !Array.isArray(logs)) {
    return null;
  }
  const parsed: ChainReceipt["logs"] = [];
  for (const log of logs) {
    if (!isRecord(log) || typeof log.address !== "string" || typeof log.data !== "string") {
      return null;
    }
    if (!Array.isArray(log.topics) || !log.topics.every((topic) => typeof topic === "string")) {
      return null;
    }
    parsed.push({ address: log.address, topics: log.topics as Hex[], data: log.data as Hex });
  }
  return { transactionHash, succeeded: status === "0x1", from, logs: parsed };
}

export interface ExpectedTransfer {
  token: string;
  recipient: string;
  amount: bigint;
  sender: string;
  realm: string;
  challengeId: string;
}

/**
 * How the receipt pays the charge: `paid` when it holds the token's transfer of exactly the
 * amount, bound to the challenge; `short` (with the largest amount sent) when its only such
 * transfers are for less; `unpaid` otherwise.
 */
export function transferOutcome(
  receipt: ChainReceipt,
  expected: ExpectedTransfer,
): { kind: "paid" } | { kind: "short"; amount: bigint } | { kind: "unpaid" } {
  let short: bigint | null = null;
  for (const log of receipt.logs) {
    if (!sameAddress(log.address, expected.token)) continue;
    const decoded = decodeTransfer(log);
    if (
      decoded === null ||
      !sameAddress(decoded.to, expected.recipient) ||
      !sameAddress(decoded.from, expected.sender) ||
      !isChallengeMemo(decoded.memo, expected.realm, expected.challengeId)
    ) {
      continue;
    }
    if (decoded.amount === expected.amount) return { kind: "paid" };
    if (decoded.amount < expected.amount && (short === null || decoded.amount > short)) {
      short = decoded.amount;
    }
  }
  return short === null ? { kind: "unpaid" } : { kind: "short", amount: short };
}

function decodeTransfer(log: ChainReceipt["logs"][number]) {
  try {
    const { args } = decodeEventLog({
      abi: TRANSFER_WITH_MEMO_ABI,
      data: log.data,
      topics: log.topics as [Hex, ...Hex[]],
    });
    return args;
  } catch {
    return null;
  }
}

export function sameAddress(a: string, b: string): boolean {
  try {
    return isAddressEqual(a as Hex, b as Hex);
  } catch {
    return false;
  }
}
