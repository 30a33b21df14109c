/**
 * Timestamps of the sample. The snapshot has a fixed reference date: observations span
 * 2025-11-01 .. 2026-10-31. Times are written in the city's local offset (with daylight
 * saving time where the city has it), computed from the UTC instant.
 */
import type { Tz } from './geography.ts';

export const WINDOW_START = { year: 2025, month: 11 };
export const WINDOW_MONTHS = 12;
export const REFERENCE_DATE = '2026-10-31';

/** Offset from UTC in hours outside daylight saving time. */
export const STANDARD_OFFSET: Record<Tz, number> = {
  'eu-wet': 0, uk: 0, 'eu-cet': 1, 'eu-eet': 2,
  'us-east': -5, 'us-central': -6, 'us-mountain': -7, 'us-pacific': -8,
  'utc-7': -7, 'utc-6': -6, 'utc-5': -5, 'utc-4': -4, 'utc+4': 4,
};

const HOUR = 3_600_000;

function lastSunday(year: number, month: number): number {
  const last = new Date(Date.UTC(year, month, 0));
  return last.getUTCDate() - last.getUTCDay();
}

function nthSunday(year: number, month: number, n: number): number {
  const firstDow = new Date(Date.UTC(year, month - 1, 1)).getUTCDay();
  return 1 + ((7 - firstDow) % 7) + 7 * (n - 1);
}

/** Offset from UTC in hours at a UTC instant. */
export function offsetHours(tz: Tz, utcMs: number): number {
  const year = new Date(utcMs).getUTCFullYear();
  const base = STANDARD_OFFSET[tz];
  switch (tz) {
    case 'eu-wet': case 'uk': case 'eu-cet': case 'eu-eet': {
      // EU rule: the last Sunday of March to the last Sunday of October, at 01:00 UTC
      const start = Date.UTC(year, 2, lastSunday(year, 3), 1);
      const end = Date.UTC(year, 9, lastSunday(year, 10), 1);
      return utcMs >= start && utcMs < end ? base + 1 : base;
    }
    case 'us-east': case 'us-central': case 'us-mountain': case 'us-pacific': {
      const start = Date.UTC(year, 2, nthSunday(year, 3, 2), 2 - base);
      const end = Date.UTC(year, 10, nthSunday(year, 11, 1), 2 - (base + 1));
      return utcMs >= start && utcMs < end ? base + 1 : base;
    }
    default:
      return base;
  }
}

const pad = (n: number, w = 2): string => String(n).padStart(w, '0');

/** ISO 8601 local time with its offset, e.g. 2026-03-14T09:12:00+01:00. */
export function formatLocal(tz: Tz, utcMs: number): string {
  const off = offsetHours(tz, utcMs);
  const d = new Date(utcMs + off * HOUR);
  const sign = off < 0 ? '-' : '+';
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}` +
    `T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}` +
    `${sign}${pad(Math.abs(off))}:00`;
}

/** Midnight UTC of the day after a UTC instant, as ISO 8601 (2026-10-29T00:00:00Z). */
export function nextUtcMidnight(utcMs: number): string {
  const day = new Date(utcMs);
  return `${new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate() + 1)).toISOString().slice(0, 10)}T00:00:00Z`;
}

/** UTC instant of a day in the window: month index 0..11, day 1..28, UTC hour and minute. */
export function windowInstant(monthIndex: number, day: number, hour: number, minute: number): number {
  const m0 = WINDOW_START.month - 1 + monthIndex;
  return Date.UTC(WINDOW_START.year + Math.floor(m0 / 12), m0 % 12, day, hour, minute);
}
