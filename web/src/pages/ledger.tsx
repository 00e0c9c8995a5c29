import { useState } from "react";
import type { Api } from "../api/client";
import { ledger } from "../api/endpoints";
import type { LedgerEntry, LedgerKind } from "../api/types";
import { LiveRegion, Loading } from "../components/notice";
import { useLoad } from "../components/use-load";
import { usd, when } from "../format";

const KINDS: { kind: LedgerKind | ""; label: string }[] = [
  { kind: "", label: "Every movement" },
  { kind: "topup", label: "Top-ups" },
  { kind: "charge", label: "Charges" },
  { kind: "refund", label: "Refunds" },
  { kind: "adjustment", label: "Credits granted" },
];

const KIND_LABEL: Record<LedgerKind, string> = {
  topup: "top-up",
  charge: "charge",
  refund: "refund",
  adjustment: "credit",
};

/** Every movement of money, newest first, a page at a time. */
export function Ledger({ api }: { api: Api }) {
  const [kind, setKind] = useState<LedgerKind | "">("");
  // The cursor of each page shown so far: the last entry id of the page before it.
  const [cursors, setCursors] = useState<string[]>([]);
  const after = cursors.at(-1);
  const [page] = useLoad(() => ledger(api, after, kind || undefined), [api, after, kind]);
  const pageNumber = cursors.length + 1;

  return (
    <div className="stack">
      <section className="card" aria-labelledby="ledger-heading">
        <div className="section-head">
          <h2 id="ledger-heading">Ledger, newest first</h2>
          <KindSelect
            value={kind}
            onChange={(chosen) => {
              setKind(chosen);
              setCursors([]);
            }}
          />
        </div>
        {page.state === "loading" ? <Loading what="the ledger" /> : null}
        {page.state === "failed" ? <LiveRegion tone="error">{page.message}</LiveRegion> : null}
        {page.state === "ready" ? (
          <>
            <LedgerTable entries={page.value.data} />
            <LedgerPager
              pageNumber={pageNumber}
              hasNewer={cursors.length > 0}
              olderCursor={page.value.has_more ? page.value.last_id : null}
              onNewer={() => setCursors(cursors.slice(0, -1))}
              onOlder={(cursor) => setCursors([...cursors, cursor])}
            />
          </>
        ) : null}
      </section>
      <p className="muted">
        Charges are what requests and batch lines cost, one entry per model call and per research
        source; top-ups come from payments, credits from the operator (
        <code>sibyl credits add</code>
        ).
      </p>
    </div>
  );
}

function LedgerTable({ entries }: { entries: LedgerEntry[] }) {
  if (entries.length === 0) return <p className="muted">Nothing here yet.</p>;
  return (
    <div className="table-wrap">
      <table>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Kind</th>
            <th scope="col" className="num">
              Amount
            </th>
            <th scope="col" className="num">
              Balance after
            </th>
            <th scope="col">For</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => (
            <tr key={entry.id}>
              <th scope="row" className="reading">
                {when(entry.created_at)}
              </th>
              <td>
                <span className={`badge badge-${entry.kind}`}>{KIND_LABEL[entry.kind]}</span>
              </td>
              <td className={`num ${entry.amount_usd < 0 ? "debit" : "credit"}`}>
                {entry.amount_usd < 0 ? "−" : "+"}
                {usd(Math.abs(entry.amount_usd))}
              </td>
              <td className="num">{usd(entry.balance_after_usd)}</td>
              <td>
                {entry.memo ?? <span className="muted">–</span>}
                {entry.reference ? (
                  <div className="muted small">
                    <code>{entry.reference}</code>
                  </div>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function KindSelect(props: { value: LedgerKind | ""; onChange: (kind: LedgerKind | "") => void }) {
  return (
    <div className="field inline-field">
      <label htmlFor="ledger-kind">Show</label>
      <select
        id="ledger-kind"
        value={props.value}
        onChange={(event) => props.onChange(event.target.value as LedgerKind | "")}
      >
        {KINDS.map((option) => (
          <option key={option.kind} value={option.kind}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Back to newer pages, and on to older ones while the server says there are more. */
function LedgerPager(props: {
  pageNumber: number;
  hasNewer: boolean;
  olderCursor: string | null | undefined;
  onNewer: () => void;
  onOlder: (cursor: string) => void;
}) {
  const { olderCursor } = props;
  return (
    <nav className="pager" aria-label="Ledger pages">
      <button type="button" disabled={!props.hasNewer} onClick={props.onNewer}>
        Newer entries
      </button>
      <span className="muted small" aria-live="polite">
        Page {props.pageNumber}
      </span>
      <button
        type="button"
        disabled={!olderCursor}
        onClick={() => olderCursor && props.onOlder(olderCursor)}
      >
        Older entries
      </button>
    </nav>
  );
}
