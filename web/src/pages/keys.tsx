import { useState } from "react";
import { type Api, messageOf } from "../api/client";
import { allKeys, revokeKey, updateKey } from "../api/endpoints";
import type { ApiKey, CreatedApiKey } from "../api/types";
import { CopyButton } from "../components/copy-button";
import { LiveRegion, Loading } from "../components/notice";
import { useLoad } from "../components/use-load";
import { usd } from "../format";
import { CreateKeyForm } from "./key-create-form";
import { KeyTable, keyLabel } from "./key-table";
import { AdminOnly, needsAdmin } from "./shared";

type Message = { tone: "success" | "error"; text: string } | null;

/** Revoking and changing limits: each says what it did, then loads the keys again. */
function useKeyActions(api: Api, reload: () => void, setMessage: (message: Message) => void) {
  const revoke = async (key: ApiKey) => {
    try {
      await revokeKey(api, key.id);
      setMessage({ tone: "success", text: `Key ${keyLabel(key)} is revoked.` });
      reload();
    } catch (error) {
      setMessage({ tone: "error", text: messageOf(error) });
    }
  };
  const changeLimit = async (key: ApiKey, limitUsd: number | null) => {
    await updateKey(api, key.id, { spend_limit_usd: limitUsd });
    setMessage({
      tone: "success",
      text:
        limitUsd === null
          ? `Key ${keyLabel(key)} has no spend limit now.`
          : `Key ${keyLabel(key)} may now spend up to ${usd(limitUsd)} in all.`,
    });
    reload();
  };
  return { revoke, changeLimit };
}

export function Keys({ api }: { api: Api }) {
  const [keys, reload] = useLoad(() => allKeys(api), [api]);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [message, setMessage] = useState<Message>(null);
  const { revoke, changeLimit } = useKeyActions(api, reload, setMessage);

  if (keys.state === "loading") return <Loading what="keys" />;
  if (keys.state === "failed") {
    return needsAdmin(keys.error) ? (
      <AdminOnly what="Managing API keys" />
    ) : (
      <LiveRegion tone="error">{keys.message}</LiveRegion>
    );
  }
  return (
    <div className="stack">
      <LiveRegion tone={message?.tone}>{message?.text}</LiveRegion>
      {created ? <NewSecret created={created} onDone={() => setCreated(null)} /> : null}
      <section className="card" aria-labelledby="keys-heading">
        <h2 id="keys-heading">Keys of your organization</h2>
        <KeyTable keys={keys.value} onRevoke={revoke} onChangeLimit={changeLimit} />
      </section>
      <CreateKeyForm
        api={api}
        onCreated={(key) => {
          setCreated(key);
          setMessage(null);
          reload();
        }}
      />
    </div>
  );
}

function NewSecret({ created, onDone }: { created: CreatedApiKey; onDone: () => void }) {
  return (
    <section className="card highlight" aria-labelledby="secret-heading">
      <h2 id="secret-heading">New key {created.name ? `“${created.name}”` : ""}</h2>
      <p>Copy this key now: it is shown this once, and only a fingerprint of it is stored.</p>
      <label htmlFor="new-secret">Secret key</label>
      <div className="secret-row">
        <input
          id="new-secret"
          readOnly
          value={created.value}
          className="secret"
          spellCheck={false}
        />
        <CopyButton text={created.value} label="Copy the new secret key" />
      </div>
      <button type="button" onClick={onDone}>
        I have saved it
      </button>
    </section>
  );
}
