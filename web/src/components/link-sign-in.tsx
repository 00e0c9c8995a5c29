import { useEffect, useState } from "react";
import { messageOf } from "../api/client";
import { CopyButton } from "./copy-button";

type Exchange =
  | { state: "pending" }
  | { state: "done"; key: string }
  | { state: "failed"; message: string };

/** The landing of a one-time sign-in link: the new key is shown here once. */
export function LinkSignIn({
  exchange,
  onContinue,
  onFailure,
}: {
  exchange: Promise<string>;
  onContinue: (key: string) => void;
  onFailure: (message: string) => void;
}) {
  const [result, setResult] = useState<Exchange>({ state: "pending" });
  useEffect(() => {
    exchange.then(
      (key) => setResult({ state: "done", key }),
      (error: unknown) => onFailure(messageOf(error)),
    );
  }, [exchange, onFailure]);
  if (result.state !== "done") {
    return (
      <main id="main" className="sign-in">
        <h1>Sibyl dashboard</h1>
        <p role="status">Signing you in…</p>
      </main>
    );
  }
  return (
    <main id="main" className="sign-in">
      <h1>You are signed in</h1>
      <div className="card stack">
        <p>
          This link created a new <strong>admin</strong> key named “dashboard sign-in” for your
          organization, shown this once. It stops working when you sign out, or after 12 hours; for
          a lasting key, create one on the API keys page.
        </p>
        <label htmlFor="new-key">Your new API key</label>
        <div className="secret-row">
          <input id="new-key" readOnly value={result.key} className="secret" spellCheck={false} />
          <CopyButton text={result.key} label="Copy the new API key" />
        </div>
        <button type="button" className="primary" onClick={() => onContinue(result.key)}>
          Continue to the dashboard
        </button>
      </div>
    </main>
  );
}
