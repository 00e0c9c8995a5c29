import { type CorpusDocument, documentOf, pair, type ShownField } from "./corpus.js";

/**
 * Classes a second audit found: each leak with its control, placed in several shown fields.
 * Cutoff 2026-05-10; documents dated 2026-05-01 unless said.
 */

const MAY_9 = { publishedAt: new Date("2026-05-09T12:00:00Z") };
const FIELDS: ShownField[] = ["title", "snippet", "source"];
const URL_FIELDS: ShownField[] = ["url", "url-as-title", "snippet"];

function everywhere(
  kind: string,
  fields: ShownField[],
  pairs: [string, string][],
  extra = {},
): CorpusDocument[] {
  return pairs.flatMap(([leak, control], index) =>
    pair(kind, fields[index % fields.length] as ShownField, leak, control, extra),
  );
}

export function auditDocuments(): CorpusDocument[] {
  return [
    // Characters a reader sees as a blank, or not at all, that are neither spaces nor format
    // characters: Hangul fillers, the braille blank, the combining grapheme joiner, variation
    // selectors, tag characters.
    ...everywhere("blank-looking filler", FIELDS, [
      ["June\u115f3, 2026", "April\u115f3, 2026"],
      ["June\u31643, 2026", "April\u31643, 2026"],
      ["June\u28003, 2026", "April\u28003, 2026"],
      ["June\uffa03, 2026", "April\uffa03, 2026"],
      ["Ju\u034fne 3, 2026", "Ap\u034fril 3, 2026"],
      ["June 3\ufe0f, 2026", "April 3\ufe0f, 2026"],
      ["June 3, 20\u{e0032}26", "April 3, 20\u{e0032}26"],
      ["2026\u2800-06-03", "2026\u2800-04-03"],
      ["Jun\u17b4e 3, 2026", "Apr\u17b4il 3, 2026"],
    ]),
    // Markup a renderer hides or decodes that the stripper left: an entity re-formed once an
    // invisible character inside it is removed, one spelled in full-width letters, CDATA
    // markers, declarations, entities nested deeper than the decoding rounds.
    ...everywhere("markup left for the model to read", FIELDS, [
      ["June&\u200bnbsp;3, 2026", "April&\u200bnbsp;3, 2026"],
      ["June\uff06nbsp\uff1b3, 2026", "April\uff06nbsp\uff1b3, 2026"],
      ["June&\u00ad#32;3, 2026", "April&\u00ad#32;3, 2026"],
      ["J<![CDATA[]]>une 3, 2026", "Ap<![CDATA[]]>ril 3, 2026"],
      ["June 3, <![CDATA[2026]]>", "April 3, <![CDATA[2026]]>"],
      ["June<?x y?> 3, 2026", "April<?x y?> 3, 2026"],
      ["Ju<!DOCTYPE x>ne 3, 2026", "Ap<!DOCTYPE x>ril 3, 2026"],
      ["June\ufe643, 2026\ufe65", "April\ufe643, 2026\ufe65"],
      ["June&amp;amp;amp;amp;nbsp;3, 2026", "April&amp;amp;amp;amp;nbsp;3, 2026"],
    ]),
    // Invisible characters percent-escaped in an address.
    ...everywhere(
      "escaped invisible character in an address",
      ["url", "url-as-title"],
      [
        ["June 3, 2\u200b026", "April 3, 2\u200b026"],
        ["2026-0\u00ad6-03", "2026-0\u00ad4-03"],
        ["Ju\u2060ne 3 2026", "Ap\u2060ril 3 2026"],
      ],
    ),
    // Any dash or minus between a numeric date's parts, and the underscore.
    ...everywhere("dash-like separator", FIELDS, [
      ["2026\u2e3a06\u2e3a03", "2026\u2e3a04\u2e3a03"],
      ["2026\u02d706\u02d703", "2026\u02d704\u02d703"],
      ["03\u2e3b06\u2e3b2026", "03\u2e3b04\u2e3b2026"],
      ["2026\u2015" + "06\u201503", "2026\u2015" + "04\u201503"],
      ["2026\ufe5806\ufe5803", "2026\ufe5804\ufe5803"],
      ["2026\u2796" + "06\u279603", "2026\u2796" + "04\u279603"],
    ]),
    ...everywhere("underscore separator", URL_FIELDS, [
      ["2026_06_03", "2026_04_03"],
      ["15_06_2026", "15_04_2026"],
      ["2026_06", "2026_04"],
    ]),
    ...everywhere("numeric date with spaces", FIELDS, [
      ["2026 06 03", "2026 04 03"],
      ["15 06 2026", "15 04 2026"],
    ]),
    // A month and a year in digits.
    ...everywhere("numeric month", URL_FIELDS, [
      ["2026-06", "2026-04"],
      ["2026/06", "2026/04"],
      ["06/2026", "04/2026"],
      ["06-2026", "04-2026"],
      ["06.2026", "04.2026"],
    ]),
    // Months in Roman numerals, as written in much of Central and Eastern Europe.
    ...everywhere("roman-numeral month", FIELDS, [
      ["3.VI.2026", "3.IV.2026"],
      ["3 VI 2026", "3 IV 2026"],
      ["3-VI-2026", "3-IV-2026"],
      ["15/vi/2026", "15/iv/2026"],
      ["VI.2026", "IV.2026"],
      ["XII 2026", "XII 2025"],
      ["2026-VI-03", "2026-IV-03"],
    ]),
    // Parts of a year.
    ...everywhere("part of a year", FIELDS, [
      ["in early 2027", "in early 2026"],
      ["late 2026", "late 2025"],
      ["mid-2027", "mid-2026"],
      ["by the end of 2026", "by the end of 2025"],
      ["year-end 2026", "year-end 2025"],
      ["end-2026", "end-2025"],
      ["the beginning of 2027", "the beginning of 2026"],
      ["the back half of 2026", "the front half of 2026"],
      ["the latter half of 2026", "the first half of 2026"],
      ["late '26", "late '25"],
    ]),
    ...everywhere("season with a short year", FIELDS, [
      ["summer '26", "spring '26"],
      ["fall of '26", "fall of '25"],
      ["Summer26", "Winter25"],
    ]),
    ...everywhere("fiscal quarter", FIELDS, [
      ["Q3 FY26", "Q1 FY26"],
      ["FY26 Q3", "FY26 Q2"],
      ["Q4 FY2026", "Q2 FY2026"],
      ["3QFY26", "1QFY26"],
    ]),
    ...everywhere("ordinal suffix d", FIELDS, [
      ["June 3d, 2026", "April 3d, 2026"],
      ["June 22d", "April 22d"],
    ]),
    // A month alone where it names a time though no preposition leads.
    ...everywhere("month alone before a noun", FIELDS, [
      ["The September meeting", "The April meeting"],
      ["the October election", "the March election"],
      ["its December session", "its February session"],
      ["September's vote", "February's vote"],
      ["October's summit", "January's summit"],
      ["the first week of June", "the first week of April"],
      ["the second half of July", "the second half of March"],
      ["the beginning of June", "the beginning of April"],
      ["the middle of June", "the middle of April"],
    ]),
    // Relative expressions near the cutoff, read against the document's day (2026-05-09).
    ...everywhere(
      "relative, near the cutoff",
      ["snippet", "title"],
      [
        ["by the end of the month", "by the end of last month"],
        ["at month-end", "at the start of the month"],
        ["by year-end", "since the start of the year"],
        ["by the end of the year", "by the end of last year"],
        ["next weekend", "last weekend"],
        ["48 hours hence", "48 hours ago"],
        ["36 hours from now", "36 hours ago"],
        ["72 hours from today", "72 hours ago"],
        ["demain", "hier"],
        ["завтра", "вчера"],
        ["morgen", "gestern"],
        ["domani", "ieri"],
        ["amanhã", "ontem"],
        ["la semaine prochaine", "la semaine dernière"],
        ["la semana que viene", "la semana pasada"],
        ["la próxima semana", "la semana pasada"],
        ["nächste Woche", "letzte Woche"],
        ["nächsten Monat", "letzten Monat"],
        ["le mois prochain", "le mois dernier"],
        ["el próximo mes", "el mes pasado"],
        ["il mese prossimo", "il mese scorso"],
        ["volgende week", "vorige week"],
        ["в следующем месяце", "в прошлом месяце"],
        ["на следующей неделе", "на прошлой неделе"],
      ],
      MAY_9,
    ),
    // Seasons, quarters and months named against the document's year (2026-05-01).
    ...everywhere("season, quarter or month of this year", FIELDS, [
      ["this summer", "this spring"],
      ["next spring", "last spring"],
      ["in the autumn", "in the spring"],
      ["en verano", "en primavera"],
      ["in Q3", "in Q1"],
      ["by H2", "by H1"],
      ["Q3 of this year", "Q1 of this year"],
      ["the second half of this year", "the first half of this year"],
      ["June this year", "April this year"],
      ["in June of this year", "in April of this year"],
      ["January next year", "January this year"],
    ]),
    // Han numerals and Japanese era years.
    ...everywhere("han numerals and eras", FIELDS, [
      ["二〇二六年六月三日", "二〇二六年四月三日"],
      ["二〇二六年十二月二十三日", "二〇二五年十二月二十三日"],
      ["六月三日", "四月三日"],
      ["令和8年6月3日", "令和8年4月3日"],
      ["令和9年1月1日", "令和7年1月1日"],
    ]),
    // A copyright year says when a page was rendered.
    ...everywhere(
      "copyright year",
      ["snippet", "source", "text"],
      [
        ["\u00a9 2027 Example News", "\u00a9 2025 Example News"],
        ["Copyright 2019-2027", "Copyright 2019-2025"],
        ["(c) 2027", "(c) 2026"],
        ["Copyright \u00a9 2027", "Copyright \u00a9 2024"],
      ],
    ),
    // Month names in more languages.
    ...everywhere("more languages", FIELDS, [
      ["3 czerwca 2026", "3 kwietnia 2026"],
      ["3 червня 2026", "3 квітня 2026"],
      ["3. června 2026", "3. dubna 2026"],
      ["3 Haziran 2026", "3 Nisan 2026"],
      ["czerwiec 2026", "kwiecień 2026"],
      ["червень 2026", "квітень 2026"],
    ]),
    // Ordinary text the new forms must not read as a later time (documents of 2026-05-01).
    ...[
      "Order No. 12/2026 was published",
      "Ley 7/2026 de presupuestos",
      "Decree 11.2026 took effect",
      "the index rose to 2030.12 points",
      "Christmas tree sales rose",
      "Halloween costumes sold out",
      "a year-end bonus was paid",
      "kids in summer camp",
      "in spring training the team",
      "in 24 hours the index fell",
      "within 48 hours of the attack",
      "President Xi 2026 agenda",
      "World War II 1945",
      "Easter Island statues",
      "Theresa May's government",
      "June's husband said",
      "last September's vote",
      "to spring a surprise",
      "a fall in prices",
      "3 leden van de raad",
      "le prochain sommet",
      "Q1 results were strong",
    ].map((words) => documentOf("no later time", "keep", { field: "snippet", words })),
    // Holidays that name a day.
    ...everywhere("holiday", FIELDS, [
      ["Christmas 2026", "Christmas 2025"],
      ["Christmas Eve 2026", "Christmas Eve 2025"],
      ["New Year's Day 2027", "New Year's Day 2026"],
      ["New Year's Eve 2026", "New Year's Eve 2025"],
      ["Halloween 2026", "Halloween 2025"],
      ["Easter 2027", "Easter 2026"],
      ["Thanksgiving 2026", "Thanksgiving 2025"],
      ["by Christmas", "since Easter"],
      ["before Thanksgiving", "after Valentine's Day"],
    ]),
  ];
}
