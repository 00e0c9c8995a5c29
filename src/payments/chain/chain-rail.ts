import { decodeFunctionData, type Hex, keccak256, parseAbi } from "viem";
import { Transaction } from "viem/tempo";
import type { ChainRail as ChainRailConfig } from "../../config/resolved.js";
import { centsToBaseUnits, dollarText } from "../amounts.js";
import { type Credential, malformed } from "../credential.js";
import { verificationFailed, verifierUnavailable } from "../problems.js";
import type { ChargeContext, PaymentOffer, PaymentRail, VerifiedPayment } from "../rail.js";
import { isChallengeMemo } from "./attribution.js";
import { JsonRpcError, type JsonRpcTransport } from "./json-rpc.js";
import { type ChainReceipt, hasExpectedTransfer, readReceipt, sameAddress } from "./transfers.js";

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

  constructor(
    private readonly config: ChainRailConfig,
    private readonly node: JsonRpcTransport,
  ) {
    this.method = config.method;
  }

  chargeRequest(amountCents: number) {
    return {
      amount: this.amount(amountCents).toString(),
      currency: this.config.currency,
      recipient: this.config.recipient,
      methodDetails: { chainId: this.config.chain_id },
    };
  }

  offer(cents: { default: number; min: number; max: number }): PaymentOffer {
    return {
      intent: "charge",
      method: this.method,
      amount: this.amount(cents.default).toString(),
      currency: this.config.currency,
      decimals: this.config.decimals,
      min_amount: this.amount(cents.min).toString(),
      max_amount: this.amount(cents.max).toString(),
      chain_id: this.config.chain_id,
      recipient: this.config.recipient,
      description: `Credits in USD at par with the token; ${dollarText(cents.default)} by default (amount_cents).`,
    };
  }

  async verify(credential: Credential, charge: ChargeContext): Promise<VerifiedPayment> {
    const { payload } = credential;
    const claimedSender = this.sourceAddress(credential.source);
    let receipt: ChainReceipt;
    let sender: string;
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
    const paid = hasExpectedTransfer(receipt, {
      token: this.config.currency,
      recipient: this.config.recipient,
      amount: this.amount(charge.amountCents),
      sender,
      realm: charge.realm,
      challengeId: charge.challengeId,
    });
    if (!paid) {
      throw verificationFailed(
        `Transaction ${receipt.transactionHash} has no transfer of ${this.amount(charge.amountCents)} base units of ${this.config.currency} from ${sender} to ${this.config.recipient} with this challenge's memo.`,
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
    const answer = await this.rpc("eth_getTransactionReceipt", [hash]);
    if (answer === null) {
      throw verificationFailed(
        `Transaction ${hash} is not on chain (yet); retry once it is mined.`,
      );
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
    const pays = calls.some((call) => this.isChargeCall(call, charge));
    if (!pays) {
      throw verificationFailed(
        `The transaction does not call transferWithMemo on ${this.config.currency} for ${this.amount(charge.amountCents)} base units to ${this.config.recipient} with this challenge's memo.`,
      );
    }
    return { raw, from };
  }

  private isChargeCall(call: Call, charge: ChargeContext): boolean {
    if (!call.to || !call.data || !sameAddress(call.to, this.config.currency)) return false;
    try {
      const { args } = decodeFunctionData({ abi: TRANSFER_WITH_MEMO, data: call.data });
      const [to, amount, memo] = args;
      return (
        sameAddress(to, this.config.recipient) &&
        amount === this.amount(charge.amountCents) &&
        isChallengeMemo(memo, charge.realm, charge.challengeId)
      );
    } catch {
      return false;
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
      if (!(error instanceof JsonRpcError)) throw error;
      const known = await this.rpc("eth_getTransactionReceipt", [hash]);
      const receipt = readReceipt(known);
      if (receipt) return receipt;
      throw verificationFailed(`The chain refused the transaction: ${error.message}`);
    }
    return this.minedReceipt(hash);
  }

  /** A lookup the node failed to answer tells nothing about the payment: a 502, not a 402. */
  private async rpc(method: string, params: unknown[]): Promise<unknown> {
    try {
      return await this.node.call(method, params);
    } catch (error) {
      if (error instanceof JsonRpcError) {
        throw verifierUnavailable("The chain node", `${method} failed: ${error.message}`);
      }
      throw error;
    }
  }
}
