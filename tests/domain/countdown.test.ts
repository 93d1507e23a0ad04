import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  addDays,
  COUNTDOWN_TICK_MS,
  countdownText,
  EXPIRED_TEXT,
  formatUtcDate,
  parseInstant,
  timeRemaining,
} from "~/domain/countdown";

const now = new Date("2026-03-01T12:00:00.000Z");
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const later = (ms: number) => new Date(now.getTime() + ms);

describe("countdownText", () => {
  it.each([
    ["missing (undefined)", undefined],
    ["missing (null)", null],
    ["an empty string", ""],
    ["an invalid string", "not a date"],
    ["an invalid Date", new Date(Number.NaN)],
    ["NaN", Number.NaN],
  ])("is Expired when the end is %s", (_label, endAt) => {
    expect(countdownText(endAt as Date | string | number | null | undefined, now)).toBe("Expired");
  });

  it("is Expired at exactly now and in the past", () => {
    expect(countdownText(now, now)).toBe(EXPIRED_TEXT);
    expect(countdownText(later(-1), now)).toBe("Expired");
    expect(countdownText(later(-DAY), now)).toBe("Expired");
  });

  it.each([
    [1, "00D 00H 00M"],
    [59 * SECOND, "00D 00H 00M"],
    [MINUTE, "00D 00H 01M"],
    [MINUTE + 59 * SECOND, "00D 00H 01M"],
    [59 * MINUTE, "00D 00H 59M"],
    [HOUR, "00D 01H 00M"],
    [23 * HOUR + 59 * MINUTE + 59 * SECOND, "00D 23H 59M"],
    [DAY, "01D 00H 00M"],
    [DAY - 1, "00D 23H 59M"],
    [5 * DAY + 12 * HOUR + 9 * MINUTE, "05D 12H 09M"],
    [30 * DAY, "30D 00H 00M"],
    [99 * DAY + 23 * HOUR, "99D 23H 00M"],
    [100 * DAY, "100D 00H 00M"],
    [365 * DAY + 2 * HOUR + 3 * MINUTE, "365D 02H 03M"],
  ])("shows %i ms left as %j", (ms, text) => {
    expect(countdownText(later(ms), now)).toBe(text);
  });

  it("accepts ISO text, SQLite timestamps (UTC) and epoch milliseconds", () => {
    expect(countdownText("2026-03-02T12:00:00.000Z", now)).toBe("01D 00H 00M");
    expect(countdownText("2026-03-02T20:00:00+08:00", now)).toBe("01D 00H 00M");
    expect(countdownText("2026-03-01 13:30:00", now)).toBe("00D 01H 30M");
    expect(countdownText("2026-03-01 13:30", now)).toBe("00D 01H 30M");
    expect(countdownText(now.getTime() + 2 * HOUR, now)).toBe("00D 02H 00M");
    expect(COUNTDOWN_TICK_MS).toBe(1000);
  });
});

describe("timeRemaining", () => {
  it("breaks the time into whole units", () => {
    expect(timeRemaining(later(DAY + 2 * HOUR + 3 * MINUTE + 4 * SECOND + 5), now)).toEqual({
      days: 1,
      hours: 2,
      minutes: 3,
      seconds: 4,
      totalMs: DAY + 2 * HOUR + 3 * MINUTE + 4 * SECOND + 5,
    });
    expect(timeRemaining(now, now)).toBeNull();
    expect(timeRemaining(null, now)).toBeNull();
  });
});

describe("parseInstant", () => {
  it("reads dates, numbers and text, or gives null", () => {
    expect(parseInstant(now)?.toISOString()).toBe(now.toISOString());
    expect(parseInstant(0)?.toISOString()).toBe("1970-01-01T00:00:00.000Z");
    expect(parseInstant("2026-03-01")?.toISOString()).toBe("2026-03-01T00:00:00.000Z");
    expect(parseInstant("2026-03-01 08:15:30")?.toISOString()).toBe("2026-03-01T08:15:30.000Z");
    expect(parseInstant("2026-03-01 08:15:30.250")?.toISOString()).toBe("2026-03-01T08:15:30.250Z");
    expect(parseInstant("  ")).toBeNull();
    expect(parseInstant("tomorrow")).toBeNull();
    expect(parseInstant(Number.POSITIVE_INFINITY)).toBeNull();
    expect(parseInstant({})).toBeNull();
    expect(parseInstant(true)).toBeNull();
  });

  it("returns a copy, not the caller's Date", () => {
    const parsed = parseInstant(now);
    expect(parsed).not.toBe(now);
  });
});

describe("addDays", () => {
  it("adds whole days", () => {
    expect(addDays(now, 30).toISOString()).toBe("2026-03-31T12:00:00.000Z");
    expect(addDays(now, 0).toISOString()).toBe(now.toISOString());
  });
});

describe("formatUtcDate", () => {
  const medium = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" });
  const withTime = new Intl.DateTimeFormat("en-US", {
    month: "short",
    day: "numeric",
    year: "numeric",
    hour: "numeric",
    minute: "2-digit",
    timeZone: "UTC",
    timeZoneName: "short",
  });
  /** Intl's text with any narrow or no-break space some ICU versions put before AM/PM read as a plain space. */
  const intl = (format: Intl.DateTimeFormat, date: Date) => format.format(date).replace(/[\u202f\u00a0]/g, " ");

  it("writes a date, and a date with its time, in UTC", () => {
    expect(formatUtcDate(new Date("2026-11-23T00:05:59Z"))).toBe("Nov 23, 2026");
    expect(formatUtcDate(new Date("2026-11-23T00:05:59Z"), true)).toBe("Nov 23, 2026, 12:05 AM UTC");
    expect(formatUtcDate(new Date("2026-09-03T12:00:00Z"), true)).toBe("Sep 3, 2026, 12:00 PM UTC");
    expect(formatUtcDate(new Date("2026-12-31T23:59:00-05:00"), true)).toBe("Jan 1, 2027, 4:59 AM UTC");
  });

  it("says what en-US Intl.DateTimeFormat says, for any instant from 1970 to 2200", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Date.UTC(2200, 0, 1) }), (ms) => {
        const date = new Date(ms);
        expect(formatUtcDate(date)).toBe(intl(medium, date));
        expect(formatUtcDate(date, true)).toBe(intl(withTime, date));
      }),
      { numRuns: 2000 },
    );
  });
});
