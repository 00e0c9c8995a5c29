import type { Api } from "../api/client";
import { LiveRegion, Loading } from "../components/notice";
import { BatchTable } from "./batch-table";
import { useBatchActions, useBatchList } from "./use-batches";

export function Batches({ api }: { api: Api }) {
  const { list, reload, showOlder } = useBatchList(api);
  const { message, save, cancel } = useBatchActions(api, reload);

  if (list.state === "loading") return <Loading what="batches" />;
  if (list.state === "failed") return <LiveRegion tone="error">{list.message}</LiveRegion>;
  const { batches, last } = list.value;
  return (
    <div className="stack">
      <LiveRegion tone={message?.tone}>{message?.text}</LiveRegion>
      <section className="card" aria-labelledby="batches-heading">
        <div className="section-head">
          <h2 id="batches-heading">Batches, newest first</h2>
          <button type="button" onClick={reload}>
            Refresh
          </button>
        </div>
        {batches.length === 0 ? (
          <p className="muted">
            No batches yet. Upload a JSONL file with purpose <code>batch</code> and create a batch
            with the API (<code>POST /v1/batches</code>).
          </p>
        ) : (
          <BatchTable batches={batches} onSave={save} onCancel={cancel} />
        )}
        {last?.has_more && last.last_id ? (
          <button type="button" onClick={() => showOlder(last.last_id as string)}>
            Show older batches
          </button>
        ) : null}
      </section>
      <p className="muted">
        A batch's cost is what its lines have been charged so far, at the batch price; each line is
        charged as it runs, under the key that created the batch, and shows in Usage and the Ledger.
      </p>
    </div>
  );
}
