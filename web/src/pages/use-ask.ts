import { useState } from "react";
import { type Api, messageOf } from "../api/client";
import { complete, type PlaygroundRequest } from "../api/endpoints";
import type { ChatCompletion } from "../api/types";

/** Sends one playground question; each ask clears the previous answer and error. */
export function useAsk(api: Api) {
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<ChatCompletion | null>(null);
  const [error, setError] = useState<string | null>(null);
  const ask = async (request: PlaygroundRequest) => {
    setBusy(true);
    setError(null);
    setResult(null);
    try {
      setResult(await complete(api, request));
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setBusy(false);
    }
  };
  return { busy, result, error, ask };
}
