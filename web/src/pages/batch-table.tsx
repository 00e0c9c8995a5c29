import type { Batch, BatchStatus } from "../api/types";
import { ConfirmButton } from "../components/confirm-button";
import { count, usd, when } from "../format";

const CANCELLABLE: BatchStatus[] = ["validating", "in_progress"];

export function BatchTable({ batches, onSave, onCancel }: { batches: Batch[] } & BatchHandlers) {
  return (
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
            <BatchRow key={batch.id} batch={batch} onSave={onSave} onCancel={onCancel} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

interface BatchHandlers {
  onSave: (fileId: string, name: string) => Promise<void>;
  onCancel: (batch: Batch) => Promise<void>;
}

function BatchRow({ batch, onSave, onCancel }: { batch: Batch } & BatchHandlers) {
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
        <BatchActions batch={batch} onSave={onSave} onCancel={onCancel} />
      </td>
    </tr>
  );
}

function BatchActions({ batch, onSave, onCancel }: { batch: Batch } & BatchHandlers) {
  return (
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
  );
}
