import { type FormEvent, useState } from "react";
import { type Api, messageOf } from "../api/client";
import { createKey } from "../api/endpoints";
import type { CreatedApiKey, KeyScope, NewKeyRequest } from "../api/types";
import { LiveRegion } from "../components/notice";
import { dayStart } from "../format";

function newKeyRequest(
  name: string,
  scope: KeyScope,
  expires: string,
  limit: string,
): NewKeyRequest {
  return {
    name: name.trim() || null,
    scope,
    // The key works through the whole chosen day (UTC).
    expires_at: expires ? dayStart(expires) + 86_400 : null,
    spend_limit_usd: limit ? Number(limit) : null,
  };
}

export function CreateKeyForm({
  api,
  onCreated,
}: {
  api: Api;
  onCreated: (key: CreatedApiKey) => void;
}) {
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
      const key = await createKey(api, newKeyRequest(name, scope, expires, limit));
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
        <ScopeField value={scope} onChange={setScope} />
        <ExpiresField value={expires} onChange={setExpires} />
        <LimitField value={limit} onChange={setLimit} />
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

function ScopeField(props: { value: KeyScope; onChange: (scope: KeyScope) => void }) {
  return (
    <div className="field">
      <label htmlFor="key-scope">Scope</label>
      <select
        id="key-scope"
        value={props.value}
        onChange={(event) => props.onChange(event.target.value as KeyScope)}
        aria-describedby="scope-help"
      >
        <option value="inference">inference: requests only</option>
        <option value="admin">admin: also manages keys</option>
      </select>
      <small id="scope-help" className="muted">
        Inference keys make requests; admin keys also manage keys and see usage.
      </small>
    </div>
  );
}

function ExpiresField(props: { value: string; onChange: (day: string) => void }) {
  return (
    <div className="field">
      <label htmlFor="key-expires">Expires after (optional)</label>
      <input
        id="key-expires"
        type="date"
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
      />
    </div>
  );
}

function LimitField(props: { value: string; onChange: (limit: string) => void }) {
  return (
    <div className="field">
      <label htmlFor="key-limit">Spend limit in USD (optional)</label>
      <input
        id="key-limit"
        type="number"
        inputMode="decimal"
        min="0.01"
        step="0.01"
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
      />
    </div>
  );
}
