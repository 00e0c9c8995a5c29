import { useState } from "react";
import type { Api } from "../api/client";
import { models as listModels } from "../api/endpoints";
import { LiveRegion } from "../components/notice";
import { useLoad } from "../components/use-load";
import { PlaygroundAnswer } from "./playground-answer";
import { AskForm } from "./playground-form";
import {
  type AskSettings,
  DEFAULT_SETTINGS,
  toRequest,
  type UpdateSetting,
} from "./playground-settings";
import { useAsk } from "./use-ask";

export function Playground({ api }: { api: Api }) {
  const [catalogue] = useLoad(() => listModels(api), [api]);
  const [settings, setSettings] = useState<AskSettings>(DEFAULT_SETTINGS);
  const { busy, result, error, ask } = useAsk(api);
  const update: UpdateSetting = (key, value) =>
    setSettings((current) => ({ ...current, [key]: value }));
  const models = catalogue.state === "ready" ? catalogue.value.data.map((entry) => entry.id) : [];
  const chosenModel = settings.model || (models[0] ?? "");
  return (
    <div className="stack">
      <section className="card" aria-labelledby="ask-heading">
        <h2 id="ask-heading">Ask one question</h2>
        <AskForm
          settings={settings}
          update={update}
          models={models}
          chosenModel={chosenModel}
          busy={busy}
          onSubmit={() => ask(toRequest(settings, chosenModel))}
        />
        {catalogue.state === "failed" ? (
          <LiveRegion tone="error">{catalogue.message}</LiveRegion>
        ) : null}
      </section>
      <div aria-live="polite" aria-busy={busy}>
        {busy ? <p className="muted">Waiting for the model…</p> : null}
        {error ? <p className="notice notice-error">{error}</p> : null}
        {result ? <PlaygroundAnswer completion={result} /> : null}
      </div>
    </div>
  );
}
