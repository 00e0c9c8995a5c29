import type { ResearchResult, Trust } from "../../../src/research/source.js";
import { auditDocuments } from "./audit-classes.js";
import {
  DAY_FORMS,
  type DateForm,
  type Day,
  disguised,
  PERIOD_FORMS,
  periodEnd,
  periodStart,
} from "./forms.js";

/**
 * The adversarial corpus: documents that try to bring information from after the cutoff to the
 * model, each paired with a control that names an earlier time the same way and must be kept.
 * Cutoff 2026-05-10 (the first instant of that day); most documents are dated 2026-05-01.
 */

export const CUTOFF = new Date("2026-05-10T00:00:00Z");
export const DOCUMENT_DATE = new Date("2026-05-01T08:00:00Z");

export interface CorpusDocument {
  id: string;
  /** The class of the issue it belongs to, for reports. */
  kind: string;
  expect: "drop" | "keep";
  result: ResearchResult;
  /** A word only this document's excerpt holds, to find it in the prompt. */
  marker: string;
}

export type ShownField = "title" | "source" | "snippet" | "text" | "url" | "url-as-title";

const LEAK_DAYS: Day[] = [
  { year: 2026, month: 6, day: 3 },
  { year: 2026, month: 5, day: 11 },
  { year: 2026, month: 5, day: 10 },
  { year: 2027, month: 1, day: 15 },
];
const CONTROL_DAYS: Day[] = [
  { year: 2026, month: 4, day: 3 },
  { year: 2026, month: 3, day: 14 },
  { year: 2025, month: 12, day: 28 },
  { year: 2026, month: 5, day: 9 },
];

let counter = 0;
function nextMarker(): string {
  counter += 1;
  return `Zqxref${String(counter).padStart(4, "0")}`;
}

export interface Placement {
  field: ShownField;
  /** The words naming a time, as they stand in the field. */
  words: string;
  trust?: Trust;
  publishedAt?: Date | null;
  firstSeenAt?: Date | null;
}

/** A result whose chosen field holds `words`; every other field is neutral. */
export function placed(placement: Placement, marker: string): ResearchResult {
  const slug = encodeURI(placement.words.replace(/[\s,]+/g, "-"));
  const url = placement.field.startsWith("url")
    ? `https://news.example/${slug}/story-${marker.toLowerCase()}`
    : `https://news.example/story-${marker.toLowerCase()}`;
  const filler = "Lawmakers met to discuss the water bill.";
  return {
    url,
    title:
      placement.field === "title"
        ? `Water bill: ${placement.words}`
        : placement.field === "url-as-title"
          ? null
          : "Water bill debate continues",
    source: placement.field === "source" ? `Daily Wire ${placement.words}` : "Example News",
    snippet: placement.field === "snippet" ? `${filler} ${placement.words}. Ref ${marker}` : null,
    text:
      placement.field === "snippet"
        ? null
        : placement.field === "text"
          ? `${filler} ${placement.words}. Ref ${marker}`
          : `${filler} Ref ${marker}`,
    publishedAt: placement.publishedAt === undefined ? DOCUMENT_DATE : placement.publishedAt,
    firstSeenAt: placement.firstSeenAt === undefined ? null : placement.firstSeenAt,
    trust: placement.trust ?? "untrusted",
  };
}

export function documentOf(
  kind: string,
  expect: "drop" | "keep",
  placement: Placement,
): CorpusDocument {
  const marker = nextMarker();
  return {
    id: `${kind} [${placement.field}] ${JSON.stringify(placement.words)}`,
    kind,
    expect,
    result: placed(placement, marker),
    marker,
  };
}

export function pair(
  kind: string,
  field: ShownField,
  leak: string,
  control: string,
  extra: Omit<Placement, "field" | "words"> = {},
): CorpusDocument[] {
  return [
    documentOf(kind, "drop", { field, words: leak, ...extra }),
    documentOf(kind, "keep", { field, words: control, ...extra }),
  ];
}

/** Forms whose rendering needs only characters a URL path shows as they are. */
const URL_SAFE = /^[A-Za-z0-9 ,/.-]+$/;

const TEXT_FIELDS: ShownField[] = ["title", "source", "snippet", "text"];

function dayFormDocuments(): CorpusDocument[] {
  const documents: CorpusDocument[] = [];
  for (const form of DAY_FORMS) {
    for (const [index, leakDay] of LEAK_DAYS.entries()) {
      const controlDay = CONTROL_DAYS[index] as Day;
      if (!controlKept(form, controlDay)) continue;
      const leak = form.render(leakDay);
      const control = form.render(controlDay);
      const fields =
        index < 2 ? TEXT_FIELDS : [TEXT_FIELDS[index % TEXT_FIELDS.length] as ShownField];
      for (const field of fields)
        documents.push(...pair(`form: ${form.name}`, field, leak, control));
      if (URL_SAFE.test(leak) && URL_SAFE.test(control) && index < 2) {
        documents.push(...pair(`url: ${form.name}`, "url", leak, control));
        documents.push(...pair(`url as title: ${form.name}`, "url-as-title", leak, control));
      }
    }
  }
  return documents;
}

/**
 * A numeric day whose day and month could be read either way round counts as later when either
 * reading is: such a control is no control.
 */
function controlKept(form: DateForm, day: Day): boolean {
  const numeric = /slashes|dashes|dots|two-digit/.test(form.name) && !form.name.startsWith("iso");
  if (!numeric || day.day > 12) return true;
  return Date.UTC(day.year, day.day - 1, day.month) < CUTOFF.getTime();
}

function periodFormDocuments(): CorpusDocument[] {
  const leakCandidates: Day[] = [
    { year: 2026, month: 6, day: 3 },
    { year: 2026, month: 8, day: 15 },
    { year: 2027, month: 2, day: 1 },
  ];
  const controlCandidates: Day[] = [
    { year: 2026, month: 3, day: 14 },
    { year: 2025, month: 11, day: 20 },
  ];
  const documents: CorpusDocument[] = [];
  for (const form of PERIOD_FORMS) {
    const leakDay = leakCandidates.find((day) => periodStart(form, day) >= CUTOFF) as Day;
    const controlDay = controlCandidates.find((day) => periodEnd(form, day) < CUTOFF) as Day;
    for (const field of ["title", "snippet", "source"] as const) {
      documents.push(
        ...pair(`period: ${form.name}`, field, form.render(leakDay), form.render(controlDay)),
      );
    }
  }
  return documents;
}

/** What a renderer collapses into one space or removes: the same words, split. */
export const SPLITTERS = [
  "\n",
  "\r\n",
  "    ",
  "\t",
  "\u00a0",
  "\u2009",
  "\u202f",
  "\u3000",
  "\u200b",
  "</p><p>",
  "<br/>",
  "</span> <span>",
  "&nbsp;",
  "&#160;",
  "&#xA0;",
  "&amp;nbsp;",
  "<!-- x -->",
];

function splitDocuments(): CorpusDocument[] {
  const documents: CorpusDocument[] = [];
  for (const splitter of SPLITTERS) {
    for (const field of ["title", "snippet", "source"] as const) {
      documents.push(
        ...pair(
          `split by ${JSON.stringify(splitter)}`,
          field,
          `June${splitter}3,${splitter}2026`,
          `April${splitter}3,${splitter}2026`,
        ),
      );
    }
  }
  documents.push(
    ...pair("soft hyphen inside a word", "snippet", "Ju\u00adne 3, 2026", "Ap\u00adril 3, 2026"),
  );
  documents.push(...pair("zero-width joiner", "title", "2026\u200d-06-03", "2026\u200d-04-03"));
  return documents;
}

/** Month names spelled with Cyrillic or Greek letters drawn like Latin ones. */
function lookAlikeDocuments(): CorpusDocument[] {
  const named = DAY_FORMS.filter((form) => /[A-Za-z]{3}/.test(form.render(LEAK_DAYS[0] as Day)));
  const documents: CorpusDocument[] = [];
  for (const [index, form] of named.entries()) {
    const leakDay = LEAK_DAYS[index % LEAK_DAYS.length] as Day;
    const controlDay = CONTROL_DAYS[index % CONTROL_DAYS.length] as Day;
    const script = index % 2 === 0 ? "cyrillic" : "greek";
    for (const only of ["all", "first"] as const) {
      const field = (["title", "snippet", "source", "url-as-title"] as const)[
        (index + (only === "all" ? 0 : 1)) % 4
      ] as ShownField;
      documents.push(
        ...pair(
          `look-alike letters (${script}, ${only}): ${form.name}`,
          field,
          disguised(form.render(leakDay), script, only),
          disguised(form.render(controlDay), script, only),
        ),
      );
    }
  }
  for (const [leak, control] of [
    ["\u039cay 11, 2026", "\u039cay 9, 2026"],
    ["\u0408un\u0435 3, 2026", "\u0408anuary 3, 2026"],
    ["3 \u0458uin 2026", "3 avr\u0456l 2026"],
    ["\u041c\u0410\u0423 20 2026", "\u041c\u0410\u0420\u0422 20 2026"],
    ["11. \u039c\u03b1i 2026", "11. \u0391pril 2026"],
  ]) {
    for (const field of ["title", "text"] as const) {
      documents.push(
        ...pair("look-alike letters: mixed scripts", field, leak as string, control as string),
      );
    }
  }
  return documents;
}

function fixedDocuments(): CorpusDocument[] {
  const may9 = new Date("2026-05-09T12:00:00Z");
  const nov2025 = new Date("2025-11-01T08:00:00Z");
  const feed = { trust: "trusted" as const, firstSeenAt: DOCUMENT_DATE };
  return [
    // Seasons and fiscal years: a season is its months in the northern hemisphere.
    ...pair("season", "snippet", "by summer 2026", "by spring 2026"),
    ...pair("season", "title", "Summer of 2026", "Winter of 2025"),
    ...pair("season", "snippet", "in the fall 2026 session", "in the autumn 2025 session"),
    ...pair("season", "snippet", "in autumn 2026", "in spring 2026"),
    ...pair("season", "snippet", "l'été 2026", "le printemps 2026"),
    ...pair("season", "snippet", "en verano de 2026", "en primavera de 2026"),
    ...pair("season", "snippet", "im Sommer 2026", "im Frühjahr 2026"),
    ...pair("fiscal year", "snippet", "the FY2027 results", "the FY2026 results"),
    ...pair("fiscal year", "title", "FY 2027 outlook", "FY 2026 outlook"),
    ...pair("fiscal year", "snippet", "FY27 guidance", "FY26 guidance"),
    ...pair("fiscal year", "snippet", "fiscal year 2027 revenue", "fiscal year 2026 revenue"),
    ...pair("fiscal year", "snippet", "in fiscal 2027", "in fiscal 2026"),
    // Relative expressions, read against the document's own date (2026-05-09, a Saturday).
    ...pair("relative", "snippet", "tomorrow", "yesterday", { publishedAt: may9 }),
    ...pair("relative", "snippet", "the day after tomorrow", "the day before yesterday", {
      publishedAt: may9,
    }),
    ...pair("relative", "snippet", "next week", "last week", { publishedAt: may9 }),
    ...pair("relative", "snippet", "in two weeks", "two weeks ago", { publishedAt: may9 }),
    ...pair("relative", "snippet", "in 10 days", "10 days ago", { publishedAt: may9 }),
    ...pair("relative", "snippet", "next Monday", "last Monday", { publishedAt: may9 }),
    ...pair("relative", "snippet", "next month", "last month", { publishedAt: may9 }),
    ...pair("relative", "snippet", "three days from now", "three days ago", { publishedAt: may9 }),
    ...pair("relative", "title", "a week from today", "a week ago today", { publishedAt: may9 }),
    ...pair("relative", "snippet", "in a month", "a month ago", { publishedAt: may9 }),
    // Yearless days, read against the document's date (2026-05-01 unless said).
    ...pair("yearless", "snippet", "on June 3 the Senate voted", "on April 3 the Senate voted"),
    ...pair("yearless", "snippet", "on June third", "on April third"),
    ...pair("yearless", "snippet", "May eleventh", "April twenty-eighth"),
    ...pair("yearless", "title", "Vote set for May 11", "Vote held April 28"),
    ...pair("yearless", "snippet", "le 3 juin", "le 3 avril"),
    ...pair("yearless", "snippet", "am 11. Mai", "am 28. April"),
    ...pair("yearless", "snippet", "el 3 de junio", "el 3 de abril"),
    ...pair("yearless", "snippet", "6月3日", "4月3日"),
    ...pair("yearless", "snippet", "by the end of June", "by the end of March"),
    ...pair("yearless", "snippet", "3rd of June", "3rd of April"),
    ...pair("yearless", "snippet", "JUNE 3", "APRIL 3"),
    ...pair(
      "yearless, earlier document",
      "snippet",
      "on June 3 the Senate passed it",
      "on October 3 the Senate passed it",
      { publishedAt: nov2025 },
    ),
    ...pair("yearless, earlier document", "title", "Passed June 3", "Passed October 20", {
      publishedAt: nov2025,
    }),
    // Months named alone, read against the document's month (2026-05-01 unless said).
    ...pair("month alone", "snippet", "a cut may come in June", "a cut came in April"),
    ...pair("month alone", "title", "Vote by the June meeting", "Vote at the April meeting"),
    ...pair("month alone", "snippet", "until june", "until april"),
    ...pair("month alone", "snippet", "NEXT JUNE", "LAST JUNE"),
    ...pair("month alone", "source", "Outlook for September", "Review of March"),
    ...pair("month alone", "snippet", "en septiembre", "en abril"),
    ...pair("month alone", "snippet", "mi-juin", "mi-avril"),
    ...pair("month alone", "text", "im Juni", "im April"),
    ...pair("month alone", "snippet", "в июне", "в апреле"),
    ...pair("month alone", "snippet", "a decision in June", "a decision in May", {
      publishedAt: new Date("2025-11-20T08:00:00Z"),
    }),
    ...pair("month alone, earlier document", "snippet", "in July", "in November", {
      publishedAt: new Date("2025-12-01T08:00:00Z"),
    }),
    // An address whose month name holds an escaped look-alike letter.
    ...pair(
      "escaped letter in an address",
      "url-as-title",
      "1 de septιembre de 2026",
      "1 de septιembre de 2019",
    ),
    ...pair("escaped letter in an address", "url", "1 de juniο de 2026", "1 de juniο de 2019"),
    ...pair("escaped letter in an address", "url-as-title", "JUL 4ΤΗ, 2026", "JUL 4ΤΗ, 2020"),
    // Provenance: a schedule is kept only in text Sibyl's feed watcher saw before the cutoff.
    ...pair("untrusted schedule", "snippet", "the vote is on June 3", "the vote was on April 3"),
    ...[
      documentOf("trusted schedule", "keep", {
        field: "snippet",
        words: "the vote is on June 3, 2026",
        ...feed,
      }),
      documentOf("trusted schedule", "keep", {
        field: "title",
        words: "Vote scheduled for Q3 2026",
        ...feed,
      }),
      documentOf("trusted schedule", "keep", {
        field: "snippet",
        words: "elections in summer 2026 and FY2027 budget",
        ...feed,
      }),
      documentOf("trusted schedule", "keep", {
        field: "snippet",
        words: "a rate cut may come in September",
        ...feed,
      }),
      documentOf("trusted schedule", "keep", {
        field: "url",
        words: "2026/06/03 vote preview",
        ...feed,
      }),
      documentOf("trusted, seen after the cutoff", "drop", {
        field: "snippet",
        words: "the vote was held",
        trust: "trusted",
        firstSeenAt: new Date("2026-05-10T00:00:01Z"),
      }),
      documentOf("trusted, published after the cutoff", "drop", {
        field: "snippet",
        words: "the vote was held",
        trust: "trusted",
        publishedAt: new Date("2026-05-12T00:00:00Z"),
        firstSeenAt: DOCUMENT_DATE,
      }),
      documentOf("untrusted, no date", "drop", {
        field: "snippet",
        words: "the vote was held",
        publishedAt: null,
      }),
      documentOf("untrusted, first seen after the cutoff", "drop", {
        field: "snippet",
        words: "the vote was held",
        firstSeenAt: new Date("2026-06-01T00:00:00Z"),
      }),
      documentOf("untrusted, published after the cutoff", "drop", {
        field: "snippet",
        words: "the vote was held",
        publishedAt: new Date("2026-05-10T00:00:00.001Z"),
      }),
    ],
    // Years alone and numbers that are no dates: controls only.
    ...[
      "a target for 2030",
      "the 2027 budget debate",
      "the 2026-27 season",
      "COVID-19 cases fell",
      "version 2.6.1 shipped",
      "won 3-2 at home",
      "24/7 coverage",
      "9/11 memorial",
      "$6.03 a gallon",
      "Q3 results were strong",
      "Chapter 11 filing",
      "1,000 people attended",
      "the May Day parade",
      "He may 3D-print parts",
      "a march on Washington",
      "3 may be enough",
      "it may rain in the north",
      "2 may not pass",
      "troops march 10 miles a day",
      "they plan to march",
      "an august body",
      "rain could mar 2 events",
      "Mayo Clinic researchers said",
      "a study from Mayo Clinic",
      "Julio Iglesias sang",
      "last September the bill failed",
      "sold out 2026 tickets",
      "2 days ago the bill was tabled",
      "the 20260 figure",
      "phone 555-0603",
      "ISBN 978-3-16-148410-0",
    ].map((words) => documentOf("no date", "keep", { field: "snippet", words })),
  ];
}

/** Every document, leaks and their controls. */
export function adversarialCorpus(): CorpusDocument[] {
  counter = 0;
  return [
    ...dayFormDocuments(),
    ...periodFormDocuments(),
    ...splitDocuments(),
    ...lookAlikeDocuments(),
    ...fixedDocuments(),
    ...auditDocuments(),
  ];
}
