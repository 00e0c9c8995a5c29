import { useState } from "react";
import type { Api } from "../api/client";
import { allKeys, models as listModels, type UsageFilter, usage } from "../api/endpoints";
import { LiveRegion, Loading } from "../components/notice";
import { useLoad } from "../components/use-load";
import { download } from "../csv";
import { isoDay } from "../format";
import { AdminOnly, needsAdmin } from "./shared";
import { initialUsageFilter, UsageFilters } from "./usage-filters";
import { rowsOf, usageCsv } from "./usage-rows";
import { UsageTable } from "./usage-table";

export function Usage({ api }: { api: Api }) {
  const [filter, setFilter] = useState<UsageFilter>(initialUsageFilter);
  const [choices] = useLoad(async () => {
    const [catalogue, keys] = await Promise.all([listModels(api), allKeys(api).catch(() => [])]);
    return { models: catalogue.data.map((entry) => entry.id), keys };
  }, [api]);
  const [report] = useLoad(() => usage(api, filter), [api, filter]);
  const models = choices.state === "ready" ? choices.value.models : [];
  const keys = choices.state === "ready" ? choices.value.keys : [];
  const keyNames = new Map(keys.map((key) => [key.id, key.name ?? key.redacted_value]));
  const rows = report.state === "ready" ? rowsOf(report.value, keyNames) : [];
  const exportCsv = () =>
    download(
      `sibyl-usage-${isoDay(filter.start)}-to-${isoDay(filter.end - 1)}.csv`,
      usageCsv(rows),
    );
  return (
    <div className="stack">
      <UsageFilters models={models} keys={keys} onApply={setFilter} />
      <section className="card" aria-labelledby="usage-heading">
        <div className="section-head">
          <h2 id="usage-heading">Requests by day, model and key</h2>
          <button type="button" onClick={exportCsv} disabled={rows.length === 0}>
            Export CSV
          </button>
        </div>
        {report.state === "loading" ? <Loading what="usage" /> : null}
        {report.state === "failed" ? (
          needsAdmin(report.error) ? (
            <AdminOnly what="Seeing usage" />
          ) : (
            <LiveRegion tone="error">{report.message}</LiveRegion>
          )
        ) : null}
        {report.state === "ready" ? <UsageTable rows={rows} /> : null}
      </section>
    </div>
  );
}
