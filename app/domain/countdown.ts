// Countdown to an end time ("05D 12H 09M"), recomputed every second by the page.

export const COUNTDOWN_TICK_MS = 1000;
export const EXPIRED_TEXT = "Expired";

const MS_PER_SECOND = 1000;
const MS_PER_MINUTE = 60 * MS_PER_SECOND;
const MS_PER_HOUR = 60 * MS_PER_MINUTE;
export const MS_PER_DAY = 24 * MS_PER_HOUR;

const SQLITE_DATETIME = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)$/;

/**
 * A calendar day 'YYYY-MM-DD' as the start of that day in UTC, or null: a day that does not exist (2027-02-31,
 * which `Date` would roll over into March) is null too.
 */
export function parseDay(text: unknown): Date | null {
  if (typeof text !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(text)) return null;
  const date = new Date(`${text}T00:00:00Z`);
  return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== text ? null : date;
}

/**
 * An instant from a Date, epoch milliseconds or date text; null when missing or invalid. SQLite's
 * "YYYY-MM-DD HH:MM:SS" (what CURRENT_TIMESTAMP stores) is read as UTC, as are date-only "YYYY-MM-DD" values;
 * other text goes through `Date.parse` (ISO 8601 with an offset is the safe form).
 */
export function parseInstant(value: unknown): Date | null {
  let ms: number;
  if (value instanceof Date) ms = value.getTime();
  else if (typeof value === "number") ms = value;
  else if (typeof value === "string") {
    const text = value.trim();
    if (text === "") return null;
    const sqlite = SQLITE_DATETIME.exec(text);
    ms = Date.parse(sqlite ? `${sqlite[1]}T${sqlite[2]}Z` : text);
  } else return null;
  return Number.isFinite(ms) ? new Date(ms) : null;
}

export interface TimeRemaining {
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
  totalMs: number;
}

/**
 * Whole days, hours, minutes and seconds left until `endAt` (each rounded down), or null when the end time is
 * missing, invalid, or not after `now` (the moment itself counts as expired).
 */
export function timeRemaining(endAt: Date | string | number | null | undefined, now: Date): TimeRemaining | null {
  const end = parseInstant(endAt);
  if (!end) return null;
  const totalMs = end.getTime() - now.getTime();
  if (!(totalMs > 0)) return null;
  return {
    days: Math.floor(totalMs / MS_PER_DAY),
    hours: Math.floor((totalMs % MS_PER_DAY) / MS_PER_HOUR),
    minutes: Math.floor((totalMs % MS_PER_HOUR) / MS_PER_MINUTE),
    seconds: Math.floor((totalMs % MS_PER_MINUTE) / MS_PER_SECOND),
    totalMs,
  };
}

function twoDigits(value: number): string {
  return String(value).padStart(2, "0");
}

/**
 * The original "'DDD HHH MMM' in two-digit form", rendered as days, hours and minutes with D/H/M suffixes
 * (docs/product.md#where-we-differ-from-the-original-specification):
 * "05D 12H 09M" (days may run past two digits: "123D 00H 00M"). Minutes are rounded down, so the last minute
 * reads "00D 00H 00M". 'Expired' when the end time is missing, invalid, now or past.
 */
export function countdownText(endAt: Date | string | number | null | undefined, now: Date): string {
  const left = timeRemaining(endAt, now);
  if (!left) return EXPIRED_TEXT;
  return `${twoDigits(left.days)}D ${twoDigits(left.hours)}H ${twoDigits(left.minutes)}M`;
}

/** `start` plus a whole number of days. */
export function addDays(start: Date, days: number): Date {
  return new Date(start.getTime() + days * MS_PER_DAY);
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"] as const;

/**
 * A date as every page shows it, in UTC so the server and the browser write the same text: "Nov 23, 2026", or with
 * its time "Nov 23, 2026, 7:05 PM UTC". The same text as en-US Intl.DateTimeFormat's medium date (and its short
 * month, day, year, hour, minute and time zone name), written out directly: a page of orders formats dozens of
 * dates, and Intl's formatter is the slow part of each.
 */
export function formatUtcDate(date: Date, withTime = false): string {
  const day = `${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}, ${date.getUTCFullYear()}`;
  if (!withTime) return day;
  const hours = date.getUTCHours();
  const minutes = String(date.getUTCMinutes()).padStart(2, "0");
  return `${day}, ${hours % 12 || 12}:${minutes} ${hours < 12 ? "AM" : "PM"} UTC`;
}
