// decisions.md, Money: a workspace's calendar is US Central time (spec, POST /payments: "today
// in US Central time"), so "today", a due date and a valid-until date are days there.

const ZONE = 'America/Chicago';

// Made on first use: a time zone's format costs ICU's zone data, a tenth of a start's work.
let parts: Intl.DateTimeFormat | undefined;

function wallClock(ms: number): Record<string, number> {
  parts ??= new Intl.DateTimeFormat('en-US', {
    timeZone: ZONE,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
  const out: Record<string, number> = {};
  for (const p of parts.formatToParts(ms)) {
    if (p.type !== 'literal') {
      out[p.type] = Number(p.value);
    }
  }
  return out;
}

/** The calendar day (YYYY-MM-DD) an instant falls on in US Central time. */
export function centralDate(ms: number): string {
  const w = wallClock(ms);
  const pad = (n: number | undefined, len = 2) => String(n ?? 0).padStart(len, '0');
  return `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}`;
}

/** How far US Central wall-clock time is ahead of UTC at an instant (negative), in ms. */
function offsetAt(ms: number): number {
  const w = wallClock(ms);
  const asUtc = Date.UTC(w.year ?? 0, (w.month ?? 1) - 1, w.day ?? 1, w.hour, w.minute, w.second);
  return asUtc - Math.floor(ms / 1000) * 1000;
}

// Days asked for again and again (a start plans every invoice's and estimate's due day): a day
// starts at the same instant whenever it is asked. Bounded, as any cache of client input.
const dayStarts = new Map<string, number>();

/** The instant a calendar day (YYYY-MM-DD) starts in US Central time. */
export function centralDayStart(date: string): number {
  let start = dayStarts.get(date);
  if (start === undefined) {
    if (dayStarts.size >= 10_000) {
      dayStarts.clear();
    }
    start = dayStartOf(date);
    dayStarts.set(date, start);
  }
  return start;
}

function dayStartOf(date: string): number {
  const [y, m, d] = date.split('-').map(Number);
  const midnightUtc = Date.UTC(y ?? 0, (m ?? 1) - 1, d ?? 1);
  const guess = midnightUtc - offsetAt(midnightUtc);
  // The offset at the guess decides across a daylight-saving change.
  return midnightUtc - offsetAt(guess);
}

/** The day after a calendar day. */
export function nextDate(date: string): string {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y ?? 0, (m ?? 1) - 1, (d ?? 1) + 1)).toISOString().slice(0, 10);
}

/** The last millisecond of a calendar day in US Central time. */
export const centralDayEnd = (date: string): number => centralDayStart(nextDate(date)) - 1;

/** A calendar day `days` after another. */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y ?? 0, (m ?? 1) - 1, (d ?? 1) + days)).toISOString().slice(0, 10);
}
