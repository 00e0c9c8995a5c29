import { wordKey } from "./tokens.js";

/**
 * Month names and abbreviations in English, Spanish, French, German, Portuguese, Italian, Dutch
 * and Russian (nominative, genitive and prepositional), keyed without accents, lower case.
 */
const MONTHS: readonly string[][] = [
  [
    "january",
    "jan",
    "enero",
    "ene",
    "janvier",
    "janv",
    "januar",
    "jänner",
    "janeiro",
    "gennaio",
    "gen",
    "januari",
    "январь",
    "января",
    "январе",
    "янв",
  ],
  [
    "february",
    "feb",
    "febrero",
    "février",
    "fevrier",
    "févr",
    "fév",
    "februar",
    "fevereiro",
    "fev",
    "febbraio",
    "februari",
    "февраль",
    "февраля",
    "феврале",
    "фев",
  ],
  [
    "march",
    "mar",
    "marzo",
    "mars",
    "märz",
    "maerz",
    "mär",
    "março",
    "marco",
    "maart",
    "mrt",
    "март",
    "марта",
    "марте",
  ],
  ["april", "apr", "abril", "abr", "avril", "avr", "aprile", "апрель", "апреля", "апреле", "апр"],
  ["may", "mayo", "mai", "maio", "maggio", "mag", "mei", "май", "мая", "мае"],
  ["june", "jun", "junio", "juin", "juni", "junho", "giugno", "giu", "июнь", "июня", "июне", "июн"],
  [
    "july",
    "jul",
    "julio",
    "juillet",
    "juil",
    "juli",
    "julho",
    "luglio",
    "lug",
    "июль",
    "июля",
    "июле",
    "июл",
  ],
  [
    "august",
    "aug",
    "agosto",
    "ago",
    "août",
    "aout",
    "augustus",
    "август",
    "августа",
    "августе",
    "авг",
  ],
  [
    "september",
    "sept",
    "sep",
    "septiembre",
    "setiembre",
    "septembre",
    "setembro",
    "set",
    "settembre",
    "сентябрь",
    "сентября",
    "сентябре",
    "сен",
    "сент",
  ],
  [
    "october",
    "oct",
    "octubre",
    "octobre",
    "oktober",
    "okt",
    "outubro",
    "out",
    "ottobre",
    "ott",
    "октябрь",
    "октября",
    "октябре",
    "окт",
  ],
  [
    "november",
    "nov",
    "noviembre",
    "novembre",
    "novembro",
    "ноябрь",
    "ноября",
    "ноябре",
    "ноя",
    "нояб",
  ],
  [
    "december",
    "dec",
    "diciembre",
    "dic",
    "décembre",
    "decembre",
    "déc",
    "dezember",
    "dez",
    "dezembro",
    "dicembre",
    "декабрь",
    "декабря",
    "декабре",
    "дек",
  ],
];

/**
 * Month words that are also common words elsewhere ("out", "set", "ago", "gen"): read only in a
 * whole day-month-year date, never alone with a day or a year.
 */
const SHARED_WORDS = new Set([
  "out",
  "set",
  "ago",
  "gen",
  "mag",
  "dic",
  "ene",
  "lug",
  "giu",
  "ott",
  "sen",
  ...[
    "leden",
    "zari",
    "ocak",
    "mart",
    "nisan",
    "ekim",
    "kasım",
    "kasim",
    "aralık",
    "aralik",
    "luty",
  ],
]);

/**
 * The keys a dictionary word is found under: its capitals may all look Latin where its small
 * letters do not ("МАРТ" reads "MAPT", "март" stays Cyrillic).
 */
export function keysOf(word: string): string[] {
  return [...new Set([wordKey(word), wordKey(word.toUpperCase())])];
}

/**
 * Polish, Ukrainian, Czech and Turkish month names (nominative and genitive), January first.
 * Words with another meaning (Czech "září" shines, Turkish "ekim" I plant, "aralık" gap) are
 * in SHARED_WORDS.
 */
const MORE_MONTHS: readonly string[][] = [
  ["styczeń", "stycznia", "січень", "січня", "leden", "ledna", "ocak"],
  ["luty", "lutego", "лютий", "лютого", "únor", "února", "şubat", "subat"],
  ["marzec", "marca", "березень", "березня", "březen", "března", "mart"],
  ["kwiecień", "kwietnia", "квітень", "квітня", "duben", "dubna", "nisan"],
  ["maj", "maja", "травень", "травня", "květen", "května", "mayıs", "mayis"],
  ["czerwiec", "czerwca", "червень", "червня", "červen", "června", "haziran"],
  ["lipiec", "lipca", "липень", "липня", "červenec", "července", "temmuz"],
  ["sierpień", "sierpnia", "серпень", "серпня", "srpen", "srpna", "ağustos"],
  ["wrzesień", "września", "вересень", "вересня", "září", "eylül"],
  ["październik", "października", "жовтень", "жовтня", "říjen", "října", "ekim"],
  ["listopad", "listopada", "листопад", "листопада", "listopadu", "kasım", "kasim"],
  ["grudzień", "grudnia", "грудень", "грудня", "prosinec", "prosince", "aralık", "aralik"],
];

export const MONTH_OF = new Map<string, number>();
for (const [month, names] of [...MONTHS.entries(), ...MORE_MONTHS.entries()]) {
  for (const name of names) for (const key of keysOf(name)) MONTH_OF.set(key, month);
}

export function isSharedMonthWord(key: string): boolean {
  return SHARED_WORDS.has(key);
}

const UNITS = [
  "first",
  "second",
  "third",
  "fourth",
  "fifth",
  "sixth",
  "seventh",
  "eighth",
  "ninth",
];
const TEENS = [
  "tenth",
  "eleventh",
  "twelfth",
  "thirteenth",
  "fourteenth",
  "fifteenth",
  "sixteenth",
  "seventeenth",
  "eighteenth",
  "nineteenth",
];

/** English ordinal words for days: "third", "eleventh", "twentieth"; compounds are read apart. */
export const ORDINAL_OF = new Map<string, number>([
  ...UNITS.map((word, index) => [word, index + 1] as const),
  ...TEENS.map((word, index) => [word, index + 10] as const),
  ["twentieth", 20],
  ["thirtieth", 30],
]);

/** The tens of compound ordinals: "twenty-first", "thirty first". */
export const ORDINAL_TENS = new Map([
  ["twenty", 20],
  ["thirty", 30],
]);

/** What may follow a day's number: 3rd, 1er, 3º (NFKC makes it 3o), 1a. */
export const ORDINAL_SUFFIXES = new Set([
  ...["st", "nd", "rd", "th", "er", "re", "e", "eme", "o", "a"],
  // 2d, 3d: the older English forms
  "d",
]);

/** Small words between a date's parts: "3rd of June", "3 de junio de 2026", "June, 2026". */
export const LINK_WORDS = new Set(["of", "de", "del", "di", "du", "van", "the"]);

/** Marks between a date's parts. */
export const DATE_MARKS = new Set([
  ",",
  ".",
  "-",
  "/",
  "–",
  "—",
  "‐",
  "‑",
  "‒",
  "−",
  "⁄",
  "_",
  "'",
  "’",
  "+",
]);

/** Seasons by the month they start, in the northern hemisphere's meteorological reckoning. */
export const SEASON_START = new Map<string, number>();
const SEASONS: [number, string[]][] = [
  [
    2,
    [
      "spring",
      "printemps",
      "primavera",
      "frühling",
      "frühjahr",
      "lente",
      "voorjaar",
      "весна",
      "весной",
    ],
  ],
  [5, ["summer", "été", "verano", "sommer", "verão", "estate", "zomer", "лето", "летом"]],
  [
    8,
    [
      "autumn",
      "fall",
      "automne",
      "otoño",
      "herbst",
      "outono",
      "autunno",
      "herfst",
      "najaar",
      "осень",
      "осенью",
    ],
  ],
  [11, ["winter", "hiver", "invierno", "inverno", "зима", "зимой"]],
];
for (const [month, words] of SEASONS) {
  for (const word of words) for (const key of keysOf(word)) SEASON_START.set(key, month);
}

/** English counts in relative expressions: "in two weeks", "a month from now". */
export const COUNT_OF = new Map<string, number>([
  ["a", 1],
  ["an", 1],
  ["one", 1],
  ["two", 2],
  ["three", 3],
  ["four", 4],
  ["five", 5],
  ["six", 6],
  ["seven", 7],
  ["eight", 8],
  ["nine", 9],
  ["ten", 10],
  ["eleven", 11],
  ["twelve", 12],
  ["few", 3],
  ["couple", 2],
  ["several", 3],
]);

export const WEEKDAY_OF = new Map<string, number>([
  ["sunday", 0],
  ["monday", 1],
  ["tuesday", 2],
  ["wednesday", 3],
  ["thursday", 4],
  ["friday", 5],
  ["saturday", 6],
]);

/** Units of relative expressions, in days (months are counted on the calendar). */
export const UNIT_DAYS = new Map<string, number>([
  ["day", 1],
  ["days", 1],
  ["week", 7],
  ["weeks", 7],
  ["fortnight", 14],
  ["fortnights", 14],
  ["month", -1],
  ["months", -1],
  ["hour", 1 / 24],
  ["hours", 1 / 24],
  ["hrs", 1 / 24],
]);

/** "Tomorrow" in French, German and Dutch (small letters: "Morgen" is a morning), Italian, Portuguese and Russian. */
export const TOMORROW_WORDS = new Set([
  ...keysOf("demain"),
  "morgen",
  "domani",
  ...keysOf("amanhã"),
  "завтра",
]);

/**
 * "Next" and the units it leads in French, Spanish, Portuguese, German, Italian, Dutch and
 * Russian, either side of the unit ("la semaine prochaine", "nächste Woche", "el próximo mes").
 */
export const FOREIGN_NEXT = new Set(
  [
    ...["prochain", "prochaine", "próximo", "próxima", "nächste", "nächsten", "nächster"],
    ...["kommende", "kommenden", "prossimo", "prossima", "volgende"],
    ...["следующей", "следующем", "следующий", "следующую", "следующая", "следующего"],
  ].flatMap(keysOf),
);
export const FOREIGN_UNIT = new Map<string, "week" | "month">([
  ...[...["semaine", "semana", "woche", "settimana", "week", "неделе", "неделю", "неделя"]].flatMap(
    (word) => keysOf(word).map((key) => [key, "week"] as const),
  ),
  ...["mois", "mes", "mês", "monat", "mese", "maand", "месяце", "месяц", "месяца"].flatMap((word) =>
    keysOf(word).map((key) => [key, "month"] as const),
  ),
]);

/** The day each part of a month starts on ("end" is its last day, 0 here). */
export const MONTH_EDGE_DAY = new Map([
  ["early", 1],
  ["beginning", 1],
  ["start", 1],
  ["mid", 11],
  ["middle", 11],
  ["late", 21],
  ["end", 0],
]);

/**
 * The month each part of a year starts in ("early 2027" is from January, "late 2026" from
 * September: the year in thirds); "end" is its last day, 12 here.
 */
export const YEAR_EDGE_MONTH = new Map([
  ["early", 0],
  ["beginning", 0],
  ["start", 0],
  ["mid", 4],
  ["middle", 4],
  ["late", 8],
  ["end", 12],
]);

/** "the back half of 2026": halves named by words rather than ordinals. */
export const HALF_WORDS = new Map([
  ["front", 1],
  ["back", 2],
  ["latter", 2],
]);

/** Words that start an English relative expression. */
export const RELATIVE_WORDS = [
  "today",
  "tonight",
  "yesterday",
  "tomorrow",
  "next",
  "this",
  "coming",
  "in",
  "within",
];

/** Before a month alone, names a time even before a small "may" or "march" ("in may"). */
export const TIME_LEAD = "time";
/** Before a month alone, names a time only before a month that is no English word ("to June"). */
export const WEAK_LEAD = "weak";

/**
 * Words after which a month named alone is a time ("in September", "en septiembre", "im
 * September", "в сентябре", "mi-septembre"), keyed as the dictionaries key words. "last" is
 * not among them: last September is past.
 */
export const BARE_MONTH_LEADS = new Map<string, string>();
for (const [lead, words] of [
  [
    TIME_LEAD,
    [
      ...["in", "by", "until", "till", "til", "since", "during", "before", "after", "from"],
      ...["through", "thru", "throughout", "around", "starting", "beginning", "ending"],
      // Spanish, Portuguese, French, German, Italian, Dutch, Russian
      ...["en", "desde", "hasta", "para", "antes", "de", "em", "até", "após"],
      ...["dès", "depuis", "avant", "après", "début", "fin", "mi"],
      ...["im", "ab", "bis", "seit", "vor", "nach", "anfang", "ende", "mitte"],
      ...["entro", "da", "dal", "dopo", "fino", "vanaf", "tot", "voor", "na", "eind", "begin"],
      ...["в", "во", "с", "со", "до", "после"],
    ],
  ],
  // "of": the first week of June, the beginning of June
  [WEAK_LEAD, ["to", "for", "this", "next", "coming", "of"]],
] as const) {
  for (const word of words) for (const key of keysOf(word)) BARE_MONTH_LEADS.set(key, lead);
}

/** Before a small "3 may" or "may 3", names a time: "on 3 may", "by march 10". */
export const TIME_PREPOSITIONS = new Set([
  ...["on", "by", "until", "till", "before", "after", "from", "since", "through"],
]);

/**
 * Month words that are English words too when written in small letters ("3 may be enough", "to
 * march", "an august body"): read alone or with only a day when a time leads.
 */
export const AMBIGUOUS_MONTH_WORDS = new Set(["may", "march", "mar", "august"]);

/**
 * Month words that are names when capitalised ("Mayo Clinic", "Julio", "Avril"): their
 * languages write months in small letters, so a capitalised one alone is not read as a month.
 */
export const NAMES_WHEN_CAPITALISED = new Set(["mayo", "julio", "abril", "avril", "maja", "marca"]);

/** Months in Roman numerals (3.VI.2026), keyed as words are. */
export const ROMAN_MONTH = new Map(
  ["i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x", "xi", "xii"].map(
    (numeral, month) => [numeral, month] as const,
  ),
);

/** Before a capitalised month and a word in small letters: "the September meeting". */
export const MONTH_DETERMINERS = ["the", "its", "their", "his", "her", "our", "a", "an"];

/** Months that are given names too: "June's", "May's" are more often a person's. */
export const GIVEN_NAME_MONTHS = new Set(["april", "may", "june", "august"]);

/** Before a period word, makes it a past one: "last year-end", "last Christmas". */
export const PAST_LEADS = new Set(["last", "previous", "prior", "past"]);
