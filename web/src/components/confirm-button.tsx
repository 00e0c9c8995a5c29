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
  const openerRef = useRef<HTMLButtonElement>(null);
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
    <ConfirmQuestion
      label={label}
      question={question}
      onConfirm={onConfirm}
      onDone={() => setAsking(false)}
      onCancel={cancel}
    />
  );
}

/** The question in place of the button, with focus on "Yes"; Escape backs out. */
function ConfirmQuestion(props: {
  label: string;
  question: string;
  onConfirm: () => Promise<void> | void;
  onDone: () => void;
  onCancel: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
  useEffect(() => confirmRef.current?.focus(), []);
  return (
    <fieldset
      className="confirm"
      onKeyDown={(event) => {
        if (event.key === "Escape") props.onCancel();
      }}
    >
      <legend>{props.question}</legend>
      <button
        ref={confirmRef}
        type="button"
        className="danger"
        disabled={busy}
        onClick={async () => {
          setBusy(true);
          try {
            await props.onConfirm();
          } finally {
            setBusy(false);
            props.onDone();
          }
        }}
      >
        Yes, {props.label.toLowerCase()}
      </button>
      <button type="button" onClick={props.onCancel}>
        Cancel
      </button>
    </fieldset>
  );
}
