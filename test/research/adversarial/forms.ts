/**
 * Ways a text can name a day or a period, each a function of the day it names. The corpus and
 * the properties render a day after the cutoff (a leak) and a day before it (a control) through
 * the same form, so every leak has a twin the guard must keep.
 */

export interface Day {
  year: number;
  /** 1–12 */
  month: number;
  day: number;
}

export type Granularity =
  | "day"
  | "month"
  | "quarter"
  | "third"
  | "half"
  | "season"
  | "week"
  | "fiscal";

export interface DateForm {
  name: string;
  granularity: Granularity;
  render(day: Day): string;
}

const EN = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];
const EN_SHORT = [
  "Jan",
  "Feb",
  "Mar",
  "Apr",
  "May",
  "Jun",
  "Jul",
  "Aug",
  "Sept",
  "Oct",
  "Nov",
  "Dec",
];
export const MONTH_NAMES: Record<string, string[]> = {
  en: EN,
  es: [
    "enero",
    "febrero",
    "marzo",
    "abril",
    "mayo",
    "junio",
    "julio",
    "agosto",
    "septiembre",
    "octubre",
    "noviembre",
    "diciembre",
  ],
  fr: [
    "janvier",
    "février",
    "mars",
    "avril",
    "mai",
    "juin",
    "juillet",
    "août",
    "septembre",
    "octobre",
    "novembre",
    "décembre",
  ],
  de: [
    "Januar",
    "Februar",
    "März",
    "April",
    "Mai",
    "Juni",
    "Juli",
    "August",
    "September",
    "Oktober",
    "November",
    "Dezember",
  ],
  pt: [
    "janeiro",
    "fevereiro",
    "março",
    "abril",
    "maio",
    "junho",
    "julho",
    "agosto",
    "setembro",
    "outubro",
    "novembro",
    "dezembro",
  ],
  it: [
    "gennaio",
    "febbraio",
    "marzo",
    "aprile",
    "maggio",
    "giugno",
    "luglio",
    "agosto",
    "settembre",
    "ottobre",
    "novembre",
    "dicembre",
  ],
  nl: [
    "januari",
    "februari",
    "maart",
    "april",
    "mei",
    "juni",
    "juli",
    "augustus",
    "september",
    "oktober",
    "november",
    "december",
  ],
  ru: [
    "января",
    "февраля",
    "марта",
    "апреля",
    "мая",
    "июня",
    "июля",
    "августа",
    "сентября",
    "октября",
    "ноября",
    "декабря",
  ],
  pl: [
    "stycznia",
    "lutego",
    "marca",
    "kwietnia",
    "maja",
    "czerwca",
    "lipca",
    "sierpnia",
    "września",
    "października",
    "listopada",
    "grudnia",
  ],
  uk: [
    "січня",
    "лютого",
    "березня",
    "квітня",
    "травня",
    "червня",
    "липня",
    "серпня",
    "вересня",
    "жовтня",
    "листопада",
    "грудня",
  ],
  cs: [
    "ledna",
    "února",
    "března",
    "dubna",
    "května",
    "června",
    "července",
    "srpna",
    "září",
    "října",
    "listopadu",
    "prosince",
  ],
  tr: [
    "Ocak",
    "Şubat",
    "Mart",
    "Nisan",
    "Mayıs",
    "Haziran",
    "Temmuz",
    "Ağustos",
    "Eylül",
    "Ekim",
    "Kasım",
    "Aralık",
  ],
};

const HAN = ["〇", "一", "二", "三", "四", "五", "六", "七", "八", "九"];
/** A year digit by digit (二〇二六), a month or day with tens (十二, 二十三). */
const hanDigits = (n: number) => [...String(n)].map((digit) => HAN[Number(digit)]).join("");
const hanCount = (n: number) =>
  n < 10
    ? (HAN[n] as string)
    : `${n >= 20 ? HAN[Math.floor(n / 10)] : ""}十${n % 10 === 0 ? "" : HAN[n % 10]}`;

const ROMAN = ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII"];
const roman = (d: Day) => ROMAN[d.month - 1] as string;

const ORDINALS = [
  "first",
  "second",
  "third",
  "fourth",
  "fifth",
  "sixth",
  "seventh",
  "eighth",
  "ninth",
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
  "twentieth",
];

export function ordinalWord(day: number): string {
  if (day <= 20) return ORDINALS[day - 1] as string;
  if (day < 30) return `twenty-${ORDINALS[day - 21]}`;
  return day === 30 ? "thirtieth" : "thirty-first";
}

function ordinalSuffix(day: number): string {
  if (day % 10 === 1 && day !== 11) return "st";
  if (day % 10 === 2 && day !== 12) return "nd";
  if (day % 10 === 3 && day !== 13) return "rd";
  return "th";
}

const pad = (n: number) => String(n).padStart(2, "0");
const en = (d: Day) => EN[d.month - 1] as string;
const enShort = (d: Day) => EN_SHORT[d.month - 1] as string;
const name = (lang: string, d: Day) => (MONTH_NAMES[lang] as string[])[d.month - 1] as string;
const fullWidth = (text: string) =>
  text.replace(/[0-9]/g, (digit) => String.fromCharCode(0xff10 + Number(digit)));
const arabicIndic = (text: string) =>
  text.replace(/[0-9]/g, (digit) => String.fromCharCode(0x0660 + Number(digit)));

/** ISO week number and its year of a day (weeks start on Monday). */
export function isoWeek(d: Day): { year: number; week: number } {
  const date = new Date(Date.UTC(d.year, d.month - 1, d.day));
  date.setUTCDate(date.getUTCDate() + 4 - (date.getUTCDay() || 7));
  const yearStart = Date.UTC(date.getUTCFullYear(), 0, 1);
  const week = Math.ceil(((date.getTime() - yearStart) / 86_400_000 + 1) / 7);
  return { year: date.getUTCFullYear(), week };
}

/** Forms that name a day with its year. */
const DAY_FORM_LIST: Omit<DateForm, "granularity">[] = [
  { name: "month day, year", render: (d) => `${en(d)} ${d.day}, ${d.year}` },
  { name: "lower case", render: (d) => `${en(d).toLowerCase()} ${d.day}, ${d.year}` },
  { name: "all caps", render: (d) => `${en(d).toUpperCase()} ${d.day}, ${d.year}` },
  { name: "caps abbreviation", render: (d) => `${enShort(d).toUpperCase()}. ${d.day} ${d.year}` },
  {
    name: "abbreviation",
    render: (d) => `${enShort(d)} ${d.day}${ordinalSuffix(d.day)}, ${d.year}`,
  },
  { name: "day month year", render: (d) => `${d.day} ${en(d)} ${d.year}` },
  {
    name: "ordinal of month",
    render: (d) => `${d.day}${ordinalSuffix(d.day)} of ${en(d)}, ${d.year}`,
  },
  { name: "ordinal word", render: (d) => `${en(d)} ${ordinalWord(d.day)}, ${d.year}` },
  { name: "the ordinal word of", render: (d) => `the ${ordinalWord(d.day)} of ${en(d)} ${d.year}` },
  { name: "iso", render: (d) => `${d.year}-${pad(d.month)}-${pad(d.day)}` },
  { name: "iso slashes", render: (d) => `${d.year}/${pad(d.month)}/${pad(d.day)}` },
  { name: "iso en-dash", render: (d) => `${d.year}–${pad(d.month)}–${pad(d.day)}` },
  { name: "compact", render: (d) => `${d.year}${pad(d.month)}${pad(d.day)}` },
  { name: "month-first slashes", render: (d) => `${d.month}/${d.day}/${d.year}` },
  { name: "day-first dashes", render: (d) => `${pad(d.day)}-${pad(d.month)}-${d.year}` },
  { name: "day-first dots", render: (d) => `${pad(d.day)}.${pad(d.month)}.${d.year}` },
  { name: "two-digit year", render: (d) => `${d.month}/${d.day}/${pad(d.year % 100)}` },
  {
    name: "day-mon-yy",
    render: (d) => `${pad(d.day)}-${enShort(d).toUpperCase()}-${pad(d.year % 100)}`,
  },
  { name: "full-width digits", render: (d) => fullWidth(`${en(d)} ${d.day}, ${d.year}`) },
  {
    name: "arabic-indic digits",
    render: (d) => arabicIndic(`${d.year}-${pad(d.month)}-${pad(d.day)}`),
  },
  { name: "spanish", render: (d) => `${d.day} de ${name("es", d)} de ${d.year}` },
  { name: "french", render: (d) => `${d.day} ${name("fr", d)} ${d.year}` },
  { name: "german", render: (d) => `${d.day}. ${name("de", d)} ${d.year}` },
  { name: "portuguese", render: (d) => `${d.day} de ${name("pt", d)} de ${d.year}` },
  { name: "italian", render: (d) => `${d.day} ${name("it", d)} ${d.year}` },
  { name: "dutch", render: (d) => `${d.day} ${name("nl", d)} ${d.year}` },
  { name: "russian", render: (d) => `${d.day} ${name("ru", d)} ${d.year} года` },
  { name: "cjk", render: (d) => `${d.year}年${d.month}月${d.day}日` },
  { name: "cjk full-width", render: (d) => fullWidth(`${d.year}年${d.month}月${d.day}日`) },
  { name: "korean", render: (d) => `${d.year}년 ${d.month}월 ${d.day}일` },
  {
    name: "han numerals",
    render: (d) => `${hanDigits(d.year)}年${hanCount(d.month)}月${hanCount(d.day)}日`,
  },
  { name: "japanese era", render: (d) => `令和${d.year - 2018}年${d.month}月${d.day}日` },
  { name: "polish", render: (d) => `${d.day} ${name("pl", d)} ${d.year}` },
  { name: "ukrainian", render: (d) => `${d.day} ${name("uk", d)} ${d.year}` },
  { name: "czech", render: (d) => `${d.day}. ${name("cs", d)} ${d.year}` },
  { name: "turkish", render: (d) => `${d.day} ${name("tr", d)} ${d.year}` },
  { name: "roman month", render: (d) => `${d.day}.${roman(d)}.${d.year}` },
  { name: "roman month spaced", render: (d) => `${d.day} ${roman(d)} ${d.year}` },
  { name: "iso underscores", render: (d) => `${d.year}_${pad(d.month)}_${pad(d.day)}` },
  { name: "iso spaced", render: (d) => `${d.year} ${pad(d.month)} ${pad(d.day)}` },
];
export const DAY_FORMS: DateForm[] = DAY_FORM_LIST.map((form) => ({ ...form, granularity: "day" }));

/** Forms that name a month or a longer period with its year: what counts is its first day. */
export const PERIOD_FORMS: DateForm[] = [
  { name: "month year", granularity: "month", render: (d) => `${en(d)} ${d.year}` },
  {
    name: "month apostrophe year",
    granularity: "month",
    render: (d) => `${enShort(d)} '${pad(d.year % 100)}`,
  },
  { name: "end of month", granularity: "month", render: (d) => `the end of ${en(d)} ${d.year}` },
  { name: "spanish month", granularity: "month", render: (d) => `${name("es", d)} de ${d.year}` },
  { name: "german month", granularity: "month", render: (d) => `${name("de", d)} ${d.year}` },
  { name: "cjk month", granularity: "month", render: (d) => `${d.year}年${d.month}月` },
  { name: "numeric month", granularity: "month", render: (d) => `${d.year}-${pad(d.month)}` },
  {
    name: "month slash year",
    granularity: "month",
    render: (d) => `${pad(d.month)}/${d.year}`,
  },
  { name: "roman month year", granularity: "month", render: (d) => `${roman(d)}.${d.year}` },
  {
    name: "part of a year",
    granularity: "third",
    render: (d) => `${["early ", "mid-", "late "][Math.floor((d.month - 1) / 4)]}${d.year}`,
  },
  {
    name: "fiscal quarter",
    granularity: "quarter",
    render: (d) => `Q${Math.ceil(d.month / 3)} FY${pad(d.year % 100)}`,
  },
  {
    name: "quarter",
    granularity: "quarter",
    render: (d) => `Q${Math.ceil(d.month / 3)} ${d.year}`,
  },
  {
    name: "quarter words",
    granularity: "quarter",
    render: (d) => `the ${ORDINALS[Math.ceil(d.month / 3) - 1]} quarter of ${d.year}`,
  },
  {
    name: "year quarter",
    granularity: "quarter",
    render: (d) => `${d.year}Q${Math.ceil(d.month / 3)}`,
  },
  { name: "half", granularity: "half", render: (d) => `H${d.month <= 6 ? 1 : 2} ${d.year}` },
  {
    name: "half words",
    granularity: "half",
    render: (d) => `the ${d.month <= 6 ? "first" : "second"} half of ${d.year}`,
  },
  {
    name: "iso week",
    granularity: "week",
    render: (d) => {
      const { year, week } = isoWeek(d);
      return `${year}-W${pad(week)}`;
    },
  },
  {
    name: "week of year",
    granularity: "week",
    render: (d) => {
      const { year, week } = isoWeek(d);
      return `week ${week} of ${year}`;
    },
  },
];

/** The first day of the period a form names for `day`, as the guard reads it. */
export function periodStart(form: DateForm, d: Day): Date {
  switch (form.granularity) {
    case "day":
      return new Date(Date.UTC(d.year, d.month - 1, d.day));
    case "month":
      return new Date(Date.UTC(d.year, d.month - 1, 1));
    case "quarter":
      return new Date(Date.UTC(d.year, 3 * Math.floor((d.month - 1) / 3), 1));
    case "third":
      return new Date(Date.UTC(d.year, 4 * Math.floor((d.month - 1) / 4), 1));
    case "half":
      return new Date(Date.UTC(d.year, d.month <= 6 ? 0 : 6, 1));
    case "week": {
      const date = new Date(Date.UTC(d.year, d.month - 1, d.day));
      date.setUTCDate(date.getUTCDate() - ((date.getUTCDay() + 6) % 7));
      return date;
    }
    case "season":
    case "fiscal":
      throw new Error(`${form.name} is tested with fixed examples`);
  }
}

/** The last day of the period, for controls that must lie wholly before the cutoff. */
export function periodEnd(form: DateForm, d: Day): Date {
  const start = periodStart(form, d);
  const end = new Date(start);
  switch (form.granularity) {
    case "day":
      break;
    case "month":
      end.setUTCMonth(end.getUTCMonth() + 1, 0);
      break;
    case "quarter":
      end.setUTCMonth(end.getUTCMonth() + 3, 0);
      break;
    case "third":
      end.setUTCMonth(end.getUTCMonth() + 4, 0);
      break;
    case "half":
      end.setUTCMonth(end.getUTCMonth() + 6, 0);
      break;
    case "week":
      end.setUTCDate(end.getUTCDate() + 6);
      break;
    default:
      break;
  }
  return end;
}

/**
 * Latin letters and letters of other scripts drawn like them, as a forger would swap them in:
 * "Μay" with a Greek capital, "Junе" with a Cyrillic "е".
 */
const LOOK_ALIKES: Record<"cyrillic" | "greek", Record<string, string>> = {
  cyrillic: {
    A: "А",
    a: "а",
    B: "В",
    C: "С",
    c: "с",
    E: "Е",
    e: "е",
    H: "Н",
    I: "І",
    i: "і",
    J: "Ј",
    j: "ј",
    K: "К",
    M: "М",
    O: "О",
    o: "о",
    P: "Р",
    p: "р",
    S: "Ѕ",
    s: "ѕ",
    T: "Т",
    x: "х",
    X: "Х",
    y: "у",
    Y: "У",
  },
  greek: {
    A: "Α",
    B: "Β",
    E: "Ε",
    H: "Η",
    I: "Ι",
    i: "ι",
    K: "Κ",
    M: "Μ",
    N: "Ν",
    O: "Ο",
    o: "ο",
    P: "Ρ",
    T: "Τ",
    u: "υ",
    v: "ν",
    X: "Χ",
    Y: "Υ",
  },
};

export type LookAlikeScript = keyof typeof LOOK_ALIKES;

/** `text` with every letter that has a look-alike in `script` swapped, or only the first one. */
export function disguised(text: string, script: LookAlikeScript, only: "all" | "first"): string {
  const table = LOOK_ALIKES[script];
  let swapped = false;
  let result = "";
  for (const char of text) {
    const lookAlike = table[char];
    if (lookAlike !== undefined && !(only === "first" && swapped)) {
      result += lookAlike;
      swapped = true;
    } else {
      result += char;
    }
  }
  return result;
}
