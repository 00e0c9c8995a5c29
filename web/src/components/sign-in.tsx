import { type FormEvent, useState } from "react";
import { Api, messageOf } from "../api/client";
import { balance } from "../api/endpoints";
import { LiveRegion } from "./notice";

/** Signs in with an API key, checked against the server before it is kept. */
export function SignIn({ onSignIn, notice }: { onSignIn: (key: string) => void; notice?: string }) {
  const [key, setKey] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const presented = key.trim();
    setBusy(true);
    setError(null);
    try {
      await balance(new Api(presented));
      onSignIn(presented);
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <main id="main" className="sign-in">
      <h1>Sibyl dashboard</h1>
      <p>
        Sign in with an API key of your organization. It is kept in this browser tab only, until you
        sign out or close the tab.
      </p>
      {notice ? <p className="notice notice-error">{notice}</p> : null}
      <form onSubmit={submit} className="card stack">
        <label htmlFor="api-key">API key</label>
        <input
          id="api-key"
          name="api-key"
          type="password"
          autoComplete="off"
          spellCheck={false}
          placeholder="sk_…"
          required
          value={key}
          onChange={(event) => setKey(event.target.value)}
        />
        <button type="submit" className="primary" disabled={busy}>
          {busy ? "Signing in…" : "Sign in"}
        </button>
        <LiveRegion tone="error">{error}</LiveRegion>
      </form>
      <p className="muted">
        No key yet? The operator of this server can send you a one-time sign-in link (
        <code>sibyl dashboard link --org ORG_ID</code>).
      </p>
    </main>
  );
}
