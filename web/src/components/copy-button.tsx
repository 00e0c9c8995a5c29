import { useState } from "react";

/** Copies `text` to the clipboard and says so. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState<"idle" | "copied" | "failed">("idle");
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied("copied");
    } catch {
      setCopied("failed");
    }
  };
  return (
    <>
      <button type="button" onClick={copy} aria-label={label}>
        Copy
      </button>
      <span role="status" className="copy-status">
        {copied === "copied"
          ? "Copied"
          : copied === "failed"
            ? "Copy failed: select the text and copy it"
            : ""}
      </span>
    </>
  );
}
