import { decodeFunctionData, type Hex, keccak256, parseAbi } from "viem";
import { Transaction } from "viem/tempo";
import type { ChainRail as ChainRailConfig } from "../../config/resolved.js";
import { ServiceError } from "../../errors.js";
import { baseUnitsToCents, centsToBaseUnits, dollarText } from "../amounts.js";
import { type Credential, malformed } from "../credential.js";
import {
  PaymentPending,
  PaymentProblem,
  paymentInsufficient,
  verificationFailed,
  wrongNetwork,
} from "../problems.js";
import type { ChargeContext, PaymentOffer, PaymentRail, VerifiedPayment } from "../rail.js";
import { challengeNonce, isChallengeMemo } from "./attribution.js";
import { JsonRpcError, type JsonRpcTransport, nodeLookup } from "./json-rpc.js";
import { ChainTransferScan } from "./transfer-scan.js";
import { type ChainReceipt, readReceipt, sameAddress, transferOutcome } from "./transfers.js";

const TRANSFER_WITH_MEMO = parseAbi([
  "function transferWithMemo(address to, uint256 amount, bytes32 memo)",
]);

/** One call of a Tempo transaction's batch. */
interface Call {
  to?: string | null | undefined;
  data?: Hex | undefined;
}

const TX_HASH = /^0x[0-9a-fA-F]{64}$/;
const SIGNED_TRANSACTION = /^0x76[0-9a-fA-F]+$/;
const PKH_SOURCE = /^did:pkh:eip155:(\d+):(0x[0-9a-fA-F]{40})$/;

/**
 * A token transfer on an EVM chain with TIP-20 tokens (Tempo), as the `tempo` charge method
 * specifies it. Both submission modes are accepted: `hash` (the payer broadcast the transaction;
 * its receipt is checked) and `transaction` (a signed transaction Sibyl broadcasts, then checks
 * the receipt of). Either way the receipt must show a successful `TransferWithMemo` of the token
 * from the payer to the recipient for exactly the amount, with the memo bound to the challenge.
 */
export class ChainPaymentRail implements PaymentRail {
  readonly kind = "chain";
  readonly method: string;
  readonly scan: ChainTransferScan;

  constructor(
    private readonly config: ChainRailConfig,
    private readonly node: JsonRpcTransport,
  ) {
    this.method = config.method;
    this.scan = new ChainTransferScan(config, node);
  }

  chargeRequest(amountCents: number) {
    return {
      amount: this.amount(amountCents).toString(),
      currency: this.config.currency,
      recipient: this.config.recipient,
      methodDetails: { chainId: this.config.chain_id },
    };
  }

  centsOf(request: Record<string, unknown>): number | null {
    return baseUnitsToCents(request.amount, this.config.decimals);
  }

  offer(cents: { default: number; min: number; max: number }): PaymentOffer {
    return {
      intent: "charge",
      method: this.method,
      amount: this.amount(cents.default).toString(),
      currency: this.config.currency,
      description: `Credits in USD at par with the token (${this.config.decimals} decimals, chain ${this.config.chain_id}); ${dollarText(cents.default)} by default, ${dollarText(cents.min)} to ${dollarText(cents.max)} (amount_cents).`,
    };
  }

  challengeTag(challengeId: string): string {
    return challengeNonce(challengeId);
  }

  async referenceOf(credential: Credential): Promise<string | null> {
    const { payload } = credential;
    if (payload.type === "hash" && typeof payload.hash === "string" && TX_HASH.test(payload.hash)) {
      return payload.hash.toLowerCase();
    }
    if (payload.type !== "transaction" || typeof payload.signature !== "string") return null;
    try {
      const raw = await Transaction.serialize(Transaction.deserialize(payload.signature as Hex));
      return keccak256(raw as Hex).toLowerCase();
    } catch {
      return null;
    }
  }

  async checkNetwork(): Promise<void> {
    const answer = await nodeLookup(this.node, "eth_chainId", []);
    const chainId =
      typeof answer === "string" && /^0x[0-9a-f]+$/i.test(answer) ? Number(answer) : null;
    if (chainId !== this.config.chain_id) {
      throw wrongNetwork(
        `payments.chain.chain_id is ${this.config.chain_id} but the node at ${redactedUrl(this.config.rpc_url)} answers chain ${chainId ?? String(answer)}`,
      );
    }
  }

  async verify(credential: Credential, charge: ChargeContext): Promise<VerifiedPayment> {
    const { payload } = credential;
    const claimedSender = this.sourceAddress(credential.source);
    let receipt: ChainReceipt;
    let sender: string;
    if (payload.type === "hash" || payload.type === "transaction") await this.checkNetwork();
    if (payload.type === "hash") {
      if (typeof payload.hash !== "string" || !TX_HASH.test(payload.hash)) {
        throw malformed("'payload.hash' must be a 32-byte transaction hash");
      }
      receipt = await this.minedReceipt(payload.hash);
      sender = claimedSender ?? receipt.from;
    } else if (payload.type === "transaction") {
      if (typeof payload.signature !== "string" || !SIGNED_TRANSACTION.test(payload.signature)) {
        throw malformed("'payload.signature' must be a signed Tempo transaction (0x76…)");
      }
      const signed = await this.checkedTransaction(payload.signature as Hex, charge);
      if (claimedSender && !sameAddress(claimedSender, signed.from)) {
        throw verificationFailed("The transaction is not signed by the credential's source.");
      }
      receipt = await this.broadcast(signed.raw);
      sender = signed.from;
    } else {
      throw malformed("'payload.type' must be 'hash' or 'transaction'");
    }
    if (!receipt.succeeded) {
      throw verificationFailed(`Transaction ${receipt.transactionHash} did not succeed.`);
    }
    const expected = this.amount(charge.amountCents);
    const outcome = transferOutcome(receipt, {
      token: this.config.currency,
      recipient: this.config.recipient,
      amount: expected,
      sender,
      realm: charge.realm,
      challengeId: charge.challengeId,
    });
    if (outcome.kind === "short") {
      throw paymentInsufficient(
        `Transaction ${receipt.transactionHash} transfers ${outcome.amount} base units of ${this.config.currency}, less than the ${expected} this challenge asks.`,
      );
    }
    if (outcome.kind === "unpaid") {
      throw verificationFailed(
        `Transaction ${receipt.transactionHash} has no transfer of ${expected} base units of ${this.config.currency} from ${sender} to ${this.config.recipient} with this challenge's memo.`,
      );
    }
    return { reference: receipt.transactionHash.toLowerCase() };
  }

  private amount(cents: number): bigint {
    return centsToBaseUnits(cents, this.config.decimals);
  }

  /** The payer named by a `did:pkh:eip155:<chain>:<address>` source, if any. */
  private sourceAddress(source: string | null): string | null {
    if (source === null) return null;
    const match = PKH_SOURCE.exec(source);
    if (!match || Number(match[1]) !== this.config.chain_id) {
      throw verificationFailed(
        `The credential's source must be did:pkh:eip155:${this.config.chain_id}:<address>.`,
      );
    }
    return match[2] ?? null;
  }

  private async minedReceipt(hash: string): Promise<ChainReceipt> {
    const answer = await nodeLookup(this.node, "eth_getTransactionReceipt", [hash]);
    if (answer === null) {
      throw new PaymentPending(hash.toLowerCase(), `Transaction ${hash} is not on chain yet.`);
    }
    const receipt = readReceipt(answer);
    if (!receipt || receipt.transactionHash.toLowerCase() !== hash.toLowerCase()) {
      throw verificationFailed(`The chain node gave no usable receipt for ${hash}.`);
    }
    return receipt;
  }

  /**
   * Checks a signed transaction before it goes anywhere: it must be for this chain and carry the
   * transfer the challenge asks for. Returns it re-serialized the way nodes hash it.
   */
  private async checkedTransaction(
    signature: Hex,
    charge: ChargeContext,
  ): Promise<{ raw: Hex; from: string }> {
    let transaction: ReturnType<typeof Transaction.deserialize>;
    let raw: Hex;
    try {
      transaction = Transaction.deserialize(signature);
      raw = (await Transaction.serialize(transaction)) as Hex;
    } catch {
      throw malformed("'payload.signature' is not a decodable signed transaction");
    }
    const from = "from" in transaction ? transaction.from : undefined;
    if (typeof from !== "string" || !transaction.signature) {
      throw malformed("the transaction is not signed");
    }
    if (transaction.chainId !== this.config.chain_id) {
      throw verificationFailed(`The transaction is not for chain ${this.config.chain_id}.`);
    }
    const calls: readonly Call[] =
      "calls" in transaction && Array.isArray(transaction.calls) ? transaction.calls : [];
    const sent = calls.map((call) => this.chargedAmount(call, charge));
    const expected = this.amount(charge.amountCents);
    if (!sent.includes(expected)) {
      const short = sent.find((amount): amount is bigint => amount !== null && amount < expected);
      if (short !== undefined) {
        // Refused before it is sent: nothing was paid, so the fresh challenges are the way on.
        throw new PaymentProblem(
          "payment-insufficient",
          `The transaction transfers ${short} base units of ${this.config.currency}, less than the ${expected} this challenge asks; it was not sent. Pay one of the fresh challenges for the full amount.`,
        );
      }
      throw verificationFailed(
        `The transaction does not call transferWithMemo on ${this.config.currency} for ${this.amount(charge.amountCents)} base units to ${this.config.recipient} with this challenge's memo.`,
      );
    }
    return { raw, from };
  }

  /** The amount a call transfers to the recipient with this challenge's memo; null for any other call. */
  private chargedAmount(call: Call, charge: ChargeContext): bigint | null {
    if (!call.to || !call.data || !sameAddress(call.to, this.config.currency)) return null;
    try {
      const { args } = decodeFunctionData({ abi: TRANSFER_WITH_MEMO, data: call.data });
      const [to, amount, memo] = args;
      return sameAddress(to, this.config.recipient) &&
        isChallengeMemo(memo, charge.realm, charge.challengeId)
        ? amount
        : null;
    } catch {
      return null;
    }
  }

  /**
   * Sends the payer's transaction and waits for its receipt (`eth_sendRawTransactionSync`). A
   * node that refuses it because it is already known or mined still has its receipt: a retried
   * credential finds the payment made by the first try.
   */
  private async broadcast(raw: Hex): Promise<ChainReceipt> {
    const hash = keccak256(raw);
    try {
      const answer = await this.node.call("eth_sendRawTransactionSync", [raw]);
      const receipt = readReceipt(answer);
      if (receipt) return receipt;
    } catch (error) {
      // The node may have the transaction even though its answer never came.
      if (error instanceof ServiceError) {
        throw new PaymentPending(
          hash.toLowerCase(),
          `The chain node did not confirm transaction ${hash} in time.`,
        );
      }
      if (!(error instanceof JsonRpcError)) throw error;
      const known = await nodeLookup(this.node, "eth_getTransactionReceipt", [hash]);
      const receipt = readReceipt(known);
      if (receipt) return receipt;
      throw verificationFailed(`The chain refused the transaction: ${error.message}`);
    }
    return this.minedReceipt(hash);
  }
}

/** The node's URL without credentials or query (providers put API keys in either). */
function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return "the configured URL";
  }
}
