import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { ConfigError, loadConfig } from "../../src/config/index.js";
import { createPaymentSetup } from "../../src/payments/create-rails.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function load(payments: unknown, server: unknown = undefined) {
  const dir = mkdtempSync(path.join(tmpdir(), "sibyl-payments-"));
  dirs.push(dir);
  const file = path.join(dir, "sibyl.yaml");
  writeFileSync(file, stringify({ payments, ...(server ? { server } : {}) }));
  return loadConfig({ file, env: {}, cwd: dir });
}

const chain = { rpc_url: "http://127.0.0.1:8545", recipient: `0x${"ab".repeat(20)}` };
const card = { secret_key_env: "CARD_KEY", network_id: "profile_1" };
const SECRET = "s".repeat(32);

describe("payments configuration", () => {
  it("fills the defaults of DESIGN section 5", () => {
    const payments = load({ chain, card }).payments;
    expect(payments).toMatchObject({
      secret_env: "SIBYL_PAYMENT_SECRET",
      challenge_ttl_seconds: 300,
      limits: { per_address_per_minute: 60, per_challenge_per_minute: 20 },
      chain: {
        method: "tempo",
        chain_id: 4217,
        currency: "0x20C000000000000000000000b9537d11c60E8b50",
        decimals: 6,
      },
      card: {
        method: "stripe",
        api_base: "https://api.stripe.com",
        payment_method_types: ["card", "link"],
      },
    });
  });

  it("keeps a private rail's own name", () => {
    const payments = load({ chain: { ...chain, method: "acme-chain" }, card }).payments;
    expect([payments?.chain?.method, payments?.card?.method]).toEqual(["acme-chain", "stripe"]);
  });

  it("refuses to offer challenges over plain HTTP off loopback unless allowed", () => {
    for (const public_url of [
      "http://sibyl.example",
      "http://10.0.0.5:8080",
      "http://0.0.0.0:8080",
    ]) {
      expect(() => load({ chain }, { public_url })).toThrow(/plain HTTP.*allow_plain_http/);
      expect(load({ chain, allow_plain_http: true }, { public_url }).payments).not.toBeNull();
    }
    for (const public_url of [
      "https://sibyl.example",
      "http://127.0.0.1:8080",
      "http://localhost:1",
      "http://[::1]:8080",
    ]) {
      expect(load({ chain }, { public_url }).payments).not.toBeNull();
    }
  });

  it.each([
    [{}, "payments: configure a chain or a card rail"],
    [{ chain: { ...chain, recipient: "0x12" } }, "payments.chain.recipient"],
    [{ chain: { ...chain, colour: "red" } }, "payments.chain"],
    [{ chain: { ...chain, method: "Tempo" } }, "payments.chain.method"],
    [{ card: { network_id: "x" } }, "payments.card"],
    [{ chain, card: { ...card, method: "tempo" } }, "payments.card.method"],
    [{ chain: { ...chain, method: "stripe" }, card }, "payments.card.method"],
    [{ chain, challenge_ttl_seconds: 5 }, "payments.challenge_ttl_seconds"],
    [{ chain, limits: { per_address_per_minute: 0 } }, "payments.limits.per_address_per_minute"],
    [{ chain, limits: { per_challenge: 5 } }, "payments.limits"],
  ])("refuses %j at start, naming the key", (payments, where) => {
    expect(() => load(payments)).toThrow(ConfigError);
    expect(() => load(payments)).toThrow(where);
  });

  it("refuses a missing or short secret and a missing card key", async () => {
    const config = load({ chain, card }).payments;
    if (!config) throw new Error("payments expected");
    await expect(createPaymentSetup(config, {})).rejects.toThrow(
      /SIBYL_PAYMENT_SECRET must hold a secret of at least 32 bytes/,
    );
    await expect(createPaymentSetup(config, { SIBYL_PAYMENT_SECRET: "short" })).rejects.toThrow(
      ConfigError,
    );
    await expect(createPaymentSetup(config, { SIBYL_PAYMENT_SECRET: SECRET })).rejects.toThrow(
      /CARD_KEY is not set/,
    );
    const setup = await createPaymentSetup(config, {
      SIBYL_PAYMENT_SECRET: SECRET,
      CARD_KEY: "sk_x",
    });
    expect(setup.rails.map((rail) => rail.method)).toEqual(["tempo", "stripe"]);
  });
});
