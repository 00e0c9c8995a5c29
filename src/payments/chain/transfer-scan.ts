import { decodeEventLog, encodeEventTopics, type Hex, pad } from "viem";
import type { ChainRail as ChainRailConfig } from "../../config/resolved.js";
import { isRecord } from "../credential.js";
import { verifierUnavailable } from "../problems.js";
import type { LandedPayment, PaymentScan } from "../rail.js";
import { memoNonce } from "./attribution.js";
import { type JsonRpcTransport, nodeLookup } from "./json-rpc.js";
import { TRANSFER_WITH_MEMO_ABI } from "./transfers.js";

/** Blocks asked for in one `eth_getLogs`: within what hosted nodes accept. */
const BLOCKS_PER_QUERY = 10_000;

/**
 * The token's `TransferWithMemo` logs to the recipient whose memo names this server (its realm's
 * fingerprint), read with `eth_getLogs`: the payments that landed, whether or not a credential
 * for them ever arrived.
 */
export class ChainTransferScan implements PaymentScan {
  readonly scope: string;

  constructor(
    private readonly config: ChainRailConfig,
    private readonly node: JsonRpcTransport,
  ) {
    this.scope = `chain:${config.chain_id}:${config.currency.toLowerCase()}:${config.recipient.toLowerCase()}`;
  }

  async head(): Promise<number> {
    return quantity(await nodeLookup(this.node, "eth_blockNumber", []), "eth_blockNumber");
  }

  /** The first block mined at or after `timeMs` (a binary search over block timestamps). */
  async blockAt(timeMs: number): Promise<number> {
    let low = 0;
    let high = await this.head();
    if ((await this.timestampOf(high)) * 1000 < timeMs) return high + 1;
    while (low < high) {
      const middle = Math.floor((low + high) / 2);
      if ((await this.timestampOf(middle)) * 1000 < timeMs) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  async landed(fromBlock: number, toBlock: number, realm: string): Promise<LandedPayment[]> {
    const found: LandedPayment[] = [];
    const topics = encodeEventTopics({
      abi: TRANSFER_WITH_MEMO_ABI,
      eventName: "TransferWithMemo",
      args: { to: this.config.recipient as Hex },
    });
    const unit = 10n ** BigInt(this.config.decimals - 2);
    for (let from = fromBlock; from <= toBlock; from += BLOCKS_PER_QUERY) {
      const to = Math.min(toBlock, from + BLOCKS_PER_QUERY - 1);
      const logs = await nodeLookup(this.node, "eth_getLogs", [
        {
          fromBlock: `0x${from.toString(16)}`,
          toBlock: `0x${to.toString(16)}`,
          address: this.config.currency,
          topics: [topics[0], null, pad(this.config.recipient as Hex)],
        },
      ]);
      if (!Array.isArray(logs)) throw unusable("eth_getLogs");
      for (const log of logs) {
        const payment = this.paymentOf(log, realm, unit);
        if (payment) found.push(payment);
      }
    }
    return found;
  }

  /** A log of a payment to this server; null for any other (another server's memo, removed). */
  private paymentOf(log: unknown, realm: string, unit: bigint): LandedPayment | null {
    if (!isRecord(log) || log.removed === true) return null;
    const { transactionHash, topics, data, address } = log;
    if (typeof transactionHash !== "string" || typeof data !== "string") return null;
    if (
      typeof address !== "string" ||
      address.toLowerCase() !== this.config.currency.toLowerCase()
    ) {
      return null;
    }
    if (!Array.isArray(topics) || !topics.every((topic) => typeof topic === "string")) return null;
    let args: { to: string; amount: bigint; memo: string };
    try {
      ({ args } = decodeEventLog({
        abi: TRANSFER_WITH_MEMO_ABI,
        data: data as Hex,
        topics: topics as [Hex, ...Hex[]],
      }));
    } catch {
      return null;
    }
    if (args.to.toLowerCase() !== this.config.recipient.toLowerCase()) return null;
    const tag = memoNonce(args.memo, realm);
    // Whole cents only: a fraction of a cent cannot be credited, and is the payer's to lose.
    const cents = args.amount / unit;
    if (tag === null || cents <= 0n || cents > BigInt(Number.MAX_SAFE_INTEGER)) return null;
    return { reference: transactionHash.toLowerCase(), tag, amountCents: Number(cents) };
  }

  private async timestampOf(block: number): Promise<number> {
    const answer = await nodeLookup(this.node, "eth_getBlockByNumber", [
      `0x${block.toString(16)}`,
      false,
    ]);
    if (!isRecord(answer)) throw unusable("eth_getBlockByNumber");
    return quantity(answer.timestamp, "eth_getBlockByNumber");
  }
}

function quantity(value: unknown, method: string): number {
  if (typeof value !== "string" || !/^0x[0-9a-f]{1,13}$/i.test(value)) throw unusable(method);
  return Number(value);
}

function unusable(method: string) {
  return verifierUnavailable("The chain node", `${method} gave an unusable answer`);
}
