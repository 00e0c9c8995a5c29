import { type FormEvent, useEffect, useRef, useState } from "react";
import { messageOf } from "../api/client";

interface SpendLimitEditorProps {
  /** How the key is named to screen readers and in messages. */
  keyLabel: string;
  limitUsd: number | null;
  /** Sets the limit (null removes it); rejects with the server's message. */
  onSave: (limitUsd: number | null) => Promise<void>;
}

/** A button that opens a small form to change, or remove, a key's spend limit. */
export function SpendLimitEditor({ keyLabel, limitUsd, onSave }: SpendLimitEditorProps) {
  const [open, setOpen] = useState(false);
  const [value, setValue] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const wasOpen = useRef(false);
  useEffect(() => {
    // Opening moves focus to the limit; closing hands it back to the button that opened it.
    if (open) input.current?.focus();
    else if (wasOpen.current) opener.current?.focus();
    wasOpen.current = open;
  }, [open]);

  const save = async (limit: number | null) => {
    setBusy(true);
    setError(null);
    try {
      await onSave(limit);
      setOpen(false);
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setBusy(false);
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void save(Number(value));
  };

  if (!open) {
    return (
      <button
        ref={opener}
        type="button"
        aria-label={`Edit the spend limit of key ${keyLabel}`}
        onClick={() => {
          setValue(limitUsd === null ? "" : String(limitUsd));
          setError(null);
          setOpen(true);
        }}
      >
        Edit
      </button>
    );
  }
  const inputId = `limit-${keyLabel.replaceAll(/\W+/g, "-")}`;
  return (
    <form className="limit-form" onSubmit={submit}>
      <label htmlFor={inputId} className="small">
        New limit in USD<span className="visually-hidden"> for key {keyLabel}</span>
      </label>
      <input
        id={inputId}
        type="number"
        inputMode="decimal"
        min="0.01"
        step="0.01"
        required
        ref={input}
        value={value}
        onChange={(event) => setValue(event.target.value)}
      />
      <div className="actions">
        <button type="submit" className="primary" disabled={busy}>
          Save
        </button>
        {limitUsd !== null ? (
          <button type="button" disabled={busy} onClick={() => void save(null)}>
            Remove limit
          </button>
        ) : null}
        <button type="button" disabled={busy} onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </form>
  );
}
