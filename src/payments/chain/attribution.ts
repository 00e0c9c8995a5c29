import { type Hex, keccak256, stringToHex } from "viem";

/**
 * The 32-byte memo MPP clients put on their transfer (`transferWithMemo`): a tag, a version, a
 * fingerprint of the server (realm) and a nonce from the challenge id. Requiring it binds the
 * on-chain payment to one challenge, so a transaction someone else made to the same recipient
 * cannot be redeemed by whoever reads its hash first.
 *
 * | bytes  | field                               |
 * |--------|-------------------------------------|
 * | 0–3    | keccak256("mpp")[0..4]              |
 * | 4      | version 0x01                        |
 * | 5–14   | keccak256(realm)[0..10]             |
 * | 15–24  | client fingerprint (any)            |
 * | 25–31  | keccak256(challenge id)[0..7]       |
 */
export function isChallengeMemo(memo: string, realm: string, challengeId: string): boolean {
  return memoNonce(memo, realm) === challengeNonce(challengeId);
}

/** The challenge nonce of a memo made for this server (realm); null for any other memo. */
export function memoNonce(memo: string, realm: string): string | null {
  const hex = memo.toLowerCase();
  if (!/^0x[0-9a-f]{64}$/.test(hex)) return null;
  const bytes = (from: number, to: number) => hex.slice(2 + from * 2, 2 + to * 2);
  const ours =
    bytes(0, 4) === prefixOf(keccak256(stringToHex("mpp")), 4) &&
    bytes(4, 5) === "01" &&
    bytes(5, 15) === prefixOf(keccak256(stringToHex(realm)), 10);
  return ours ? bytes(25, 32) : null;
}

/** The 7 bytes of a challenge id a memo carries. */
export function challengeNonce(challengeId: string): string {
  return prefixOf(keccak256(stringToHex(challengeId)), 7);
}

function prefixOf(hash: Hex, length: number): string {
  return hash.slice(2, 2 + length * 2).toLowerCase();
}
