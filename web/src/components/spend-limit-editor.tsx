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
  const opener = useRef<HTMLButtonElement>(null);
  const wasOpen = useRef(false);
  useEffect(() => {
    // Closing hands focus back to the button that opened the form.
    if (!open && wasOpen.current) opener.current?.focus();
    wasOpen.current = open;
  }, [open]);

  if (!open) {
    return (
      <button
        ref={opener}
        type="button"
        aria-label={`Edit the spend limit of key ${keyLabel}`}
        onClick={() => setOpen(true)}
      >
        Edit
      </button>
    );
  }
  return (
    <LimitForm
      keyLabel={keyLabel}
      limitUsd={limitUsd}
      onSave={onSave}
      onClose={() => setOpen(false)}
    />
  );
}

/** The open editor: starts from the current limit, with focus on it, and closes once saved. */
function LimitForm(props: SpendLimitEditorProps & { onClose: () => void }) {
  const { keyLabel, limitUsd } = props;
  const [value, setValue] = useState(limitUsd === null ? "" : String(limitUsd));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);

  const save = async (limit: number | null) => {
    setBusy(true);
    setError(null);
    try {
      await props.onSave(limit);
      props.onClose();
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
      <LimitFormActions
        busy={busy}
        canRemove={limitUsd !== null}
        onRemove={() => void save(null)}
        onCancel={props.onClose}
      />
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </form>
  );
}

function LimitFormActions(props: {
  busy: boolean;
  canRemove: boolean;
  onRemove: () => void;
  onCancel: () => void;
}) {
  return (
    <div className="actions">
      <button type="submit" className="primary" disabled={props.busy}>
        Save
      </button>
      {props.canRemove ? (
        <button type="button" disabled={props.busy} onClick={props.onRemove}>
          Remove limit
        </button>
      ) : null}
      <button type="button" disabled={props.busy} onClick={props.onCancel}>
        Cancel
      </button>
    </div>
  );
}
