import { useEffect, useRef, useState } from "react";

interface ConfirmButtonProps {
  /** The button's text, e.g. "Revoke". */
  label: string;
  /** What the button acts on, for screen readers: "Revoke key ci-runner". */
  accessibleLabel: string;
  /** The question asked before acting. */
  question: string;
  onConfirm: () => Promise<void> | void;
  disabled?: boolean;
}

/** A destructive action that asks first, in place; Escape or Cancel backs out. */
export function ConfirmButton({
  label,
  accessibleLabel,
  question,
  onConfirm,
  disabled,
}: ConfirmButtonProps) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const openerRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (asking) confirmRef.current?.focus();
  }, [asking]);
  const cancel = () => {
    setAsking(false);
    requestAnimationFrame(() => openerRef.current?.focus());
  };
  if (!asking) {
    return (
      <button
        ref={openerRef}
        type="button"
        className="danger"
        aria-label={accessibleLabel}
        disabled={disabled}
        onClick={() => setAsking(true)}
      >
        {label}
      </button>
    );
  }
  return (
    <fieldset
      className="confirm"
      onKeyDown={(event) => {
        if (event.key === "Escape") cancel();
      }}
    >
      <legend>{question}</legend>
      <button
        ref={confirmRef}
        type="button"
        className="danger"
        disabled={busy}
        onClick={async () => {
          setBusy(true);
          try {
            await onConfirm();
          } finally {
            setBusy(false);
            setAsking(false);
          }
        }}
      >
        Yes, {label.toLowerCase()}
      </button>
      <button type="button" onClick={cancel}>
        Cancel
      </button>
    </fieldset>
  );
}
