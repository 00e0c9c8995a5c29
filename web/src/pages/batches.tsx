import { useEffect, useState } from "react";
import { type Api, messageOf } from "../api/client";
import { cancelBatch, fileContent, batches as listBatches } from "../api/endpoints";
import type { Batch, BatchStatus } from "../api/types";
import { ConfirmButton } from "../components/confirm-button";
import { LiveRegion, Loading } from "../components/notice";
import { useLoad } from "../components/use-load";
import { download } from "../csv";
import { count, usd, when } from "../format";

const ACTIVE: BatchStatus[] = ["validating", "in_progress", "finalizing", "cancelling"];
const CANCELLABLE: BatchStatus[] = ["validating", "in_progress"];
/** How often the list refreshes while a batch is still running. */
const POLL_MS = 3_000;

export function Batches({ api }: { api: Api }) {
  const [pages, setPages] = useState<string[]>([]);
  const [list, reload] = useLoad(
    async () => {
      // The first page and every page the person asked for, so a refresh keeps what is shown.
      const first = await listBatches(api);
      const rest = await Promise.all(pages.map((after) => listBatches(api, after)));
      const all = [first, ...rest];
      return { batches: all.flatMap((page) => page.data), last: all.at(-1) };
    },
    [api, pages],
    { extends: true },
  );
  const [message, setMessage] = useState<{ tone: "success" | "error"; text: string } | null>(null);
  const running =
    list.state === "ready" && list.value.batches.some((batch) => ACTIVE.includes(batch.status));
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(reload, POLL_MS);
    return () => clearInterval(timer);
  }, [running, reload]);

  const save = async (fileId: string, name: string) => {
    try {
      download(name, await fileContent(api, fileId));
      setMessage({ tone: "success", text: `Downloading ${name}.` });
    } catch (error) {
      setMessage({ tone: "error", text: messageOf(error) });
    }
  };
  const cancel = async (batch: Batch) => {
    try {
      await cancelBatch(api, batch.id);
      setMessage({ tone: "success", text: `Batch ${batch.id} is being cancelled.` });
      reload();
    } catch (error) {
      setMessage({ tone: "error", text: messageOf(error) });
    }
  };

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
          <div className="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">Batch</th>
                  <th scope="col">Status</th>
                  <th scope="col">Progress</th>
                  <th scope="col" className="num">
                    Tokens
                  </th>
                  <th scope="col" className="num">
                    Cost
                  </th>
                  <th scope="col">Created</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {batches.map((batch) => (
                  <BatchRow key={batch.id} batch={batch} onSave={save} onCancel={cancel} />
                ))}
              </tbody>
            </table>
          </div>
        )}
        {last?.has_more && last.last_id ? (
          <button type="button" onClick={() => setPages([...pages, last.last_id as string])}>
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

interface BatchRowProps {
  batch: Batch;
  onSave: (fileId: string, name: string) => Promise<void>;
  onCancel: (batch: Batch) => Promise<void>;
}

function BatchRow({ batch, onSave, onCancel }: BatchRowProps) {
  const counts = batch.request_counts ?? { total: 0, completed: 0, failed: 0 };
  const done = counts.completed + counts.failed;
  const progressId = `progress-${batch.id}`;
  return (
    <tr>
      <th scope="row">
        <code>{batch.id}</code>
        {batch.model ? <div className="muted small">{batch.model}</div> : null}
      </th>
      <td>
        <span className={`badge badge-${batch.status}`}>{batch.status.replace("_", " ")}</span>
        {batch.errors?.data[0]?.message ? (
          <div className="small">{batch.errors.data[0].message}</div>
        ) : null}
      </td>
      <td>
        <label htmlFor={progressId} className="small">
          {count(done)} of {count(counts.total)} done
          {counts.failed > 0 ? `, ${count(counts.failed)} failed` : ""}
        </label>
        <progress id={progressId} max={Math.max(counts.total, 1)} value={done} />
      </td>
      <td className="num">{batch.usage ? count(batch.usage.total_tokens) : "–"}</td>
      <td className="num" data-testid={`cost-${batch.id}`}>
        {batch.cost_usd === undefined ? "–" : usd(batch.cost_usd)}
      </td>
      <td>{when(batch.created_at)}</td>
      <td>
        <div className="actions">
          {batch.output_file_id ? (
            <button
              type="button"
              aria-label={`Download the output of batch ${batch.id}`}
              onClick={() => onSave(batch.output_file_id as string, `${batch.id}_output.jsonl`)}
            >
              Output
            </button>
          ) : null}
          {batch.error_file_id ? (
            <button
              type="button"
              aria-label={`Download the errors of batch ${batch.id}`}
              onClick={() => onSave(batch.error_file_id as string, `${batch.id}_errors.jsonl`)}
            >
              Errors
            </button>
          ) : null}
          {CANCELLABLE.includes(batch.status) ? (
            <ConfirmButton
              label="Cancel"
              accessibleLabel={`Cancel batch ${batch.id}`}
              question="Cancel this batch? Lines not yet run are dropped."
              onConfirm={() => onCancel(batch)}
            />
          ) : null}
        </div>
      </td>
    </tr>
  );
}
