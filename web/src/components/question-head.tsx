import type { Sort, SortKey } from "./question-view";

interface Sorting {
  sort: Sort;
  sortBy: (key: SortKey) => void;
}

function SortHeader(props: Sorting & { column: SortKey; label: string; numeric?: boolean }) {
  const { sort, column } = props;
  return (
    <th
      scope="col"
      className={props.numeric ? "num" : undefined}
      aria-sort={sort.key === column ? (sort.ascending ? "ascending" : "descending") : undefined}
    >
      <button type="button" className="sort" onClick={() => props.sortBy(column)}>
        {props.label}
      </button>
    </th>
  );
}

export function QuestionHead({ models, ...sorting }: Sorting & { models: string[] }) {
  return (
    <thead>
      <tr>
        <SortHeader {...sorting} column="question" label="Question" />
        <SortHeader {...sorting} column="source" label="Source" />
        <SortHeader {...sorting} column="answer_type" label="Type" />
        <SortHeader {...sorting} column="due_date" label="Due" />
        <SortHeader {...sorting} column="resolution_date" label="Resolves" />
        <SortHeader {...sorting} column="outcome" label="Outcome" />
        <th scope="col" className="num">
          Market
        </th>
        {models.map((model) => (
          <th key={`f-${model}`} scope="col" className="num">
            {model}
          </th>
        ))}
        {models.map((model) => (
          <SortHeader
            key={`score:${model}`}
            {...sorting}
            column={`score:${model}`}
            label={`${model} score`}
            numeric
          />
        ))}
        <th scope="col">Reasoning</th>
      </tr>
    </thead>
  );
}
