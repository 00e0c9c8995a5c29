import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  decodeFunctionData,
  encodeAbiParameters,
  encodeEventTopics,
  type Hex,
  keccak256,
  parseAbi,
  toHex,
} from "viem";
import { Transaction } from "viem/tempo";

export const CHAIN_ID = 4217;
export const USDC = "0x20C000000000000000000000b9537d11c60E8b50";

const TIP20 = parseAbi([
  "event Transfer(address indexed from, address indexed to, uint256 amount)",
  "event TransferWithMemo(address indexed from, address indexed to, uint256 amount, bytes32 indexed memo)",
  "function transfer(address to, uint256 amount) returns (bool)",
  "function transferWithMemo(address to, uint256 amount, bytes32 memo)",
]);

export interface TransferSpec {
  token?: string;
  from: string;
  to: string;
  amount: bigint;
  /** Without one, a plain `transfer` (Transfer log only). */
  memo?: Hex;
  /** The transaction reverted (status 0x0, no logs). */
  failed?: boolean;
}

/** An `eth_getLogs` filter object. */
interface LogFilter {
  fromBlock?: Hex;
  toBlock?: Hex;
  address?: string | string[];
  topics?: (Hex | Hex[] | null)[];
}

class RpcFailure extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

interface RpcLog {
  address: string;
  topics: Hex[];
  data: Hex;
  logIndex: Hex;
  transactionHash: Hex;
  blockNumber: Hex;
}

/**
 * A Tempo node on loopback speaking JSON-RPC 2.0 over HTTP: receipts of mined transfers (with
 * TIP-20 Transfer / TransferWithMemo logs), raw Tempo transactions decoded and mined at once, and
 * what viem's transaction preparation asks for. `eth_fillTransaction` is not offered (viem then
 * fills fields call by call, as with most nodes).
 */
export class FakeNode {
  readonly calls: string[] = [];
  /** How long `eth_sendRawTransactionSync` keeps its answer after mining (a slow node). */
  sendDelayMs = 0;
  /** What `eth_chainId` answers: a node of another chain when changed. */
  chainId = CHAIN_ID;
  /** The node's time, stamped on the blocks it mines. */
  now: () => number = Date.now;
  private readonly receipts = new Map<string, Record<string, unknown>>();
  /** Mined transactions the node does not know yet (they land later). */
  private readonly unseen = new Set<string>();
  /** Each mined block's timestamp, in seconds; earlier blocks have the node's start time. */
  private readonly blockTimes = new Map<number, number>();
  private readonly startedAt = Math.floor(Date.now() / 1000) - 3600;
  private server: Server | null = null;
  private block = 100;
  url = "";

  async start(): Promise<this> {
    this.server = createServer((request, response) => {
      let body = "";
      request.setEncoding("utf8");
      request.on("data", (chunk: string) => {
        body += chunk;
      });
      request.on("end", () => {
        void this.answer(body).then((answer) => {
          response.setHeader("content-type", "application/json");
          response.end(JSON.stringify(answer));
        });
      });
    });
    const server = this.server;
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** A transfer the payer broadcast: mined, its receipt available by hash. */
  mineTransfer(transfer: TransferSpec): Hex {
    const hash = keccak256(toHex(`transfer ${this.block} ${Math.random()}`));
    this.record(hash, transfer.from, transfer.failed ? [] : [transfer], !transfer.failed);
    return hash;
  }

  /** The transaction is known to nobody until `land` (it is mined late). */
  holdBack(hash: Hex): void {
    this.unseen.add(hash.toLowerCase());
  }

  /** A held-back transaction lands, in a new block. */
  land(hash: Hex): void {
    const key = hash.toLowerCase();
    const receipt = this.receipts.get(key);
    if (!this.unseen.delete(key) || !receipt) return;
    this.block += 1;
    const blockNumber = toHex(this.block);
    this.blockTimes.set(this.block, Math.floor(this.now() / 1000));
    receipt.blockNumber = blockNumber;
    for (const log of receipt.logs as RpcLog[]) log.blockNumber = blockNumber;
  }

  /** One transaction making several transfers (a batch of calls), mined. */
  mineBatch(from: string, transfers: TransferSpec[]): Hex {
    const hash = keccak256(toHex(`batch ${this.block} ${Math.random()}`));
    this.record(hash, from, transfers, true);
    return hash;
  }

  private record(hash: Hex, from: string, transfers: TransferSpec[], succeeded: boolean): void {
    this.block += 1;
    this.blockTimes.set(this.block, Math.floor(this.now() / 1000));
    const blockNumber = toHex(this.block);
    const logs: RpcLog[] = [];
    for (const transfer of transfers) {
      const address = transfer.token ?? USDC;
      const data = encodeAbiParameters([{ type: "uint256" }], [transfer.amount]);
      const args = { from: transfer.from as Hex, to: transfer.to as Hex };
      const log = (topics: Hex[]) => ({
        address,
        topics,
        data,
        logIndex: toHex(logs.length),
        transactionHash: hash,
        blockNumber,
      });
      logs.push(log(encodeEventTopics({ abi: TIP20, eventName: "Transfer", args }) as Hex[]));
      if (transfer.memo) {
        const topics = encodeEventTopics({
          abi: TIP20,
          eventName: "TransferWithMemo",
          args: { ...args, memo: transfer.memo },
        });
        logs.push(log(topics as Hex[]));
      }
    }
    this.receipts.set(hash.toLowerCase(), {
      transactionHash: hash,
      transactionIndex: "0x0",
      blockHash: keccak256(blockNumber),
      blockNumber,
      from,
      to: transfers[0]?.token ?? USDC,
      cumulativeGasUsed: "0x5208",
      gasUsed: "0x5208",
      effectiveGasPrice: "0x4a817c800",
      contractAddress: null,
      logs,
      logsBloom: `0x${"00".repeat(256)}`,
      status: succeeded ? "0x1" : "0x0",
      type: "0x76",
    });
  }

  private async answer(body: string): Promise<unknown> {
    const message = JSON.parse(body) as { id: number; method: string; params?: unknown[] };
    this.calls.push(message.method);
    try {
      return { jsonrpc: "2.0", id: message.id, result: await this.result(message) };
    } catch (error) {
      const code = error instanceof RpcFailure ? error.code : -32603;
      const text = (error as Error).message;
      return { jsonrpc: "2.0", id: message.id, error: { code, message: text } };
    }
  }

  private async result(message: { method: string; params?: unknown[] }): Promise<unknown> {
    const params = message.params ?? [];
    switch (message.method) {
      case "eth_chainId":
        return toHex(this.chainId);
      case "eth_blockNumber":
        return toHex(this.block);
      case "eth_getBlockByNumber": {
        const tag = params[0];
        const number = typeof tag === "string" && tag.startsWith("0x") ? Number(tag) : this.block;
        if (number > this.block) return null;
        return {
          number: toHex(number),
          hash: keccak256(toHex(number)),
          timestamp: toHex(this.blockTimes.get(number) ?? this.startedAt),
          baseFeePerGas: "0x4a817c800",
          gasLimit: "0x1c9c380",
          transactions: [],
        };
      }
      case "eth_getLogs":
        return this.logs(params[0] as LogFilter);
      case "eth_maxPriorityFeePerGas":
        return "0x0";
      case "eth_gasPrice":
        return "0x4a817c800";
      case "eth_estimateGas":
        return "0x30d40";
      case "eth_getTransactionCount":
        return "0x0";
      case "eth_getTransactionReceipt": {
        const hash = String(params[0]).toLowerCase();
        return this.unseen.has(hash) ? null : (this.receipts.get(hash) ?? null);
      }
      case "eth_sendRawTransaction":
        return this.mineRaw(params[0] as Hex);
      case "eth_sendRawTransactionSync": {
        const hash = this.mineRaw(params[0] as Hex);
        if (this.sendDelayMs > 0) {
          await new Promise((resolve) => setTimeout(resolve, this.sendDelayMs));
        }
        return this.receipts.get(hash.toLowerCase());
      }
      default:
        throw new RpcFailure(
          -32601,
          `the method ${message.method} does not exist/is not available`,
        );
    }
  }

  /** The logs of successful known transactions matching the filter, in block order. */
  private logs(filter: LogFilter): RpcLog[] {
    const from = filter.fromBlock === undefined ? 0 : Number(filter.fromBlock);
    const to = filter.toBlock === undefined ? this.block : Number(filter.toBlock);
    if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to)) {
      throw new RpcFailure(-32602, "invalid block range");
    }
    if (to - from >= 10_000) throw new RpcFailure(-32005, "query exceeds max block range 10000");
    const addresses = [filter.address ?? []].flat().map((address) => address.toLowerCase());
    const matches = (topic: Hex | undefined, wanted: Hex | Hex[] | null | undefined) =>
      wanted == null ||
      [wanted].flat().some((candidate) => candidate.toLowerCase() === topic?.toLowerCase());
    return [...this.receipts.entries()]
      .filter(([hash, receipt]) => !this.unseen.has(hash) && receipt.status === "0x1")
      .flatMap(([, receipt]) => receipt.logs as RpcLog[])
      .filter((log) => {
        const block = Number(log.blockNumber);
        if (block < from || block > to) return false;
        if (addresses.length > 0 && !addresses.includes(log.address.toLowerCase())) return false;
        return (filter.topics ?? []).every((wanted, index) => matches(log.topics[index], wanted));
      })
      .map((log) => ({
        ...log,
        blockHash: keccak256(log.blockNumber),
        transactionIndex: "0x0",
        removed: false,
      }))
      .sort((a, b) => Number(a.blockNumber) - Number(b.blockNumber));
  }

  /** Decodes a signed Tempo transaction and mines its TIP-20 transfers. */
  private mineRaw(raw: Hex): Hex {
    const hash = keccak256(raw);
    if (this.receipts.has(hash.toLowerCase())) throw new RpcFailure(-32000, "already known");
    const transaction = Transaction.deserialize(raw);
    const from = "from" in transaction ? String(transaction.from) : "";
    const calls = ("calls" in transaction ? transaction.calls : []) as {
      to?: string;
      data?: Hex;
    }[];
    const transfers = calls.flatMap((call): TransferSpec[] => {
      if (!call.to || !call.data) return [];
      const decoded = decodeFunctionData({ abi: TIP20, data: call.data });
      const [to, amount, memo] = decoded.args as [Hex, bigint, Hex | undefined];
      return [{ token: call.to, from, to, amount, ...(memo ? { memo } : {}) }];
    });
    this.record(hash, from, transfers, true);
    return hash;
  }
}
