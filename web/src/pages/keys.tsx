import { type FormEvent, useState } from "react";
import { type Api, messageOf } from "../api/client";
import { allKeys, createKey, revokeKey, updateKey } from "../api/endpoints";
import type { ApiKey, CreatedApiKey, KeyScope } from "../api/types";
import { ConfirmButton } from "../components/confirm-button";
import { CopyButton } from "../components/copy-button";
import { LiveRegion, Loading } from "../components/notice";
import { SpendLimitEditor } from "../components/spend-limit-editor";
import { useLoad } from "../components/use-load";
import { dayStart, usd, when } from "../format";
import { AdminOnly, needsAdmin } from "./shared";

const keyLabel = (key: ApiKey) => key.name ?? key.redacted_value;
/** The name the server gives the keys that dashboard sign-in links issue. */
const SIGN_IN_KEY_NAME = "dashboard sign-in";

export function Keys({ api }: { api: Api }) {
  const [keys, reload] = useLoad(() => allKeys(api), [api]);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [message, setMessage] = useState<{ tone: "success" | "error"; text: string } | null>(null);

  if (keys.state === "loading") return <Loading what="keys" />;
  if (keys.state === "failed") {
    return needsAdmin(keys.error) ? (
      <AdminOnly what="Managing API keys" />
    ) : (
      <LiveRegion tone="error">{keys.message}</LiveRegion>
    );
  }
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
  return (
    <div className="stack">
      <LiveRegion tone={message?.tone}>{message?.text}</LiveRegion>
      {created ? <NewSecret created={created} onDone={() => setCreated(null)} /> : null}
      <section className="card" aria-labelledby="keys-heading">
        <h2 id="keys-heading">Keys of your organization</h2>
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Key</th>
                <th scope="col">Scope</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">Expires</th>
                <th scope="col" className="num">
                  Spend limit
                </th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.value.map((key) => (
                <tr key={key.id} className={key.revoked_at ? "revoked" : undefined}>
                  <th scope="row">
                    {key.name ?? <span className="muted">unnamed</span>}
                    {key.name === SIGN_IN_KEY_NAME ? (
                      <>
                        {" "}
                        <span
                          className="badge badge-sign-in"
                          title="Issued by a dashboard sign-in link; expires with its session"
                        >
                          sign-in
                        </span>
                      </>
                    ) : null}
                  </th>
                  <td>
                    <code>{key.redacted_value}</code>
                  </td>
                  <td>
                    <span className={`badge badge-${key.scope}`}>{key.scope}</span>
                  </td>
                  <td>{when(key.created_at)}</td>
                  <td>{when(key.last_used_at)}</td>
                  <td>{when(key.expires_at, "never")}</td>
                  <td className="num">
                    <div className="limit-cell">
                      {key.spend_limit_usd === null ? "none" : usd(key.spend_limit_usd)}
                      {key.revoked_at ? null : (
                        <SpendLimitEditor
                          keyLabel={keyLabel(key)}
                          limitUsd={key.spend_limit_usd}
                          onSave={(limit) => changeLimit(key, limit)}
                        />
                      )}
                    </div>
                  </td>
                  <td>
                    {key.revoked_at ? (
                      <span className="muted">revoked {when(key.revoked_at)}</span>
                    ) : (
                      <ConfirmButton
                        label="Revoke"
                        accessibleLabel={`Revoke key ${keyLabel(key)}`}
                        question={`Revoke ${keyLabel(key)}? Requests with it stop working at once.`}
                        onConfirm={() => revoke(key)}
                      />
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
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

function CreateKeyForm({ api, onCreated }: { api: Api; onCreated: (key: CreatedApiKey) => void }) {
  const [name, setName] = useState("");
  const [scope, setScope] = useState<KeyScope>("inference");
  const [expires, setExpires] = useState("");
  const [limit, setLimit] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const key = await createKey(api, {
        name: name.trim() || null,
        scope,
        // The key works through the whole chosen day (UTC).
        expires_at: expires ? dayStart(expires) + 86_400 : null,
        spend_limit_usd: limit ? Number(limit) : null,
      });
      setName("");
      setExpires("");
      setLimit("");
      onCreated(key);
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="card" aria-labelledby="create-heading">
      <h2 id="create-heading">Create a key</h2>
      <form onSubmit={submit} className="form-grid">
        <div className="field">
          <label htmlFor="key-name">Name</label>
          <input
            id="key-name"
            value={name}
            maxLength={256}
            onChange={(event) => setName(event.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="key-scope">Scope</label>
          <select
            id="key-scope"
            value={scope}
            onChange={(event) => setScope(event.target.value as KeyScope)}
            aria-describedby="scope-help"
          >
            <option value="inference">inference: requests only</option>
            <option value="admin">admin: also manages keys</option>
          </select>
          <small id="scope-help" className="muted">
            Inference keys make requests; admin keys also manage keys and see usage.
          </small>
        </div>
        <div className="field">
          <label htmlFor="key-expires">Expires after (optional)</label>
          <input
            id="key-expires"
            type="date"
            value={expires}
            onChange={(event) => setExpires(event.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="key-limit">Spend limit in USD (optional)</label>
          <input
            id="key-limit"
            type="number"
            inputMode="decimal"
            min="0.01"
            step="0.01"
            value={limit}
            onChange={(event) => setLimit(event.target.value)}
          />
        </div>
        <div className="form-actions">
          <button type="submit" className="primary" disabled={busy}>
            {busy ? "Creating…" : "Create key"}
          </button>
        </div>
      </form>
      <LiveRegion tone="error">{error}</LiveRegion>
    </section>
  );
}
