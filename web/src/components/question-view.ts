import { useMemo, useState } from "react";
import type { QuestionRow } from "../api/types";

export type SortKey =
  | "question"
  | "source"
  | "answer_type"
  | "due_date"
  | "resolution_date"
  | "outcome"
  | `score:${string}`;

export interface Sort {
  key: SortKey;
  ascending: boolean;
}

function sortValue(row: QuestionRow, key: SortKey): string | number {
  if (key.startsWith("score:"))
    return row.forecasts[key.slice(6)]?.score ?? Number.POSITIVE_INFINITY;
  if (key === "outcome") return row.outcome;
  return (row[key as keyof QuestionRow] as string | null) ?? "";
}

function compareBy(sort: Sort) {
  return (a: QuestionRow, b: QuestionRow) => {
    const x = sortValue(a, sort.key);
    const y = sortValue(b, sort.key);
    const order =
      typeof x === "number" && typeof y === "number"
        ? Math.sign(x - y) || 0
        : String(x).localeCompare(String(y));
    return sort.ascending ? order : -order;
  };
}

const distinct = (values: string[]) => [...new Set(values)].sort();

/** The questions kept by the source and answer-type filters, in the chosen order. */
export function useQuestionView(rows: QuestionRow[]) {
  const [source, setSource] = useState("");
  const [type, setType] = useState("");
  const [sort, setSort] = useState<Sort>({ key: "source", ascending: true });
  const sources = useMemo(() => distinct(rows.map((row) => row.source)), [rows]);
  const types = useMemo(() => distinct(rows.map((row) => row.answer_type)), [rows]);
  const shown = useMemo(
    () =>
      rows
        .filter(
          (row) =>
            (source === "" || row.source === source) && (type === "" || row.answer_type === type),
        )
        .sort(compareBy(sort)),
    [rows, source, type, sort],
  );
  // A second click on the sorted column reverses it; another column starts ascending.
  const sortBy = (key: SortKey) =>
    setSort((current) => ({ key, ascending: current.key === key ? !current.ascending : true }));
  return { source, setSource, type, setType, sources, types, sort, sortBy, shown };
}
