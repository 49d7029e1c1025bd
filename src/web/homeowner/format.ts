// How the homeowner's pages and documents write money, dates and states: in words a homeowner
// reads, never the API's enumerations.

const USD = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

export const money = (n: number | null | undefined): string =>
  n === null || n === undefined ? '—' : USD.format(n);

/** A quantity as written on a line: no trailing zeros. */
export const quantity = (n: number): string => String(Number(n.toFixed(4)));

const LONG_DATE = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });

/** A calendar day (YYYY-MM-DD), or the day of an instant in the workspace's calendar. */
export function day(value: string | null | undefined, timeZone = 'America/Chicago'): string {
  if (!value) {
    return '—';
  }
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    return LONG_DATE.format(Date.parse(`${value}T00:00:00Z`));
  }
  return new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone }).format(
    Date.parse(value),
  );
}

/** A task's wall-clock time (YYYY-MM-DDTHH:MM:SS, no offset) as a person reads it. */
export function wallTime(value: string): string {
  const ms = Date.parse(`${value}Z`);
  if (Number.isNaN(ms)) {
    return value;
  }
  return new Intl.DateTimeFormat('en-US', {
    weekday: 'long',
    month: 'long',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZone: 'UTC',
  }).format(ms);
}

/** The wall-clock time now in a zone, in the form tasks' due dates take. */
export function wallNow(ms: number, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(ms);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '00';
  return `${get('year')}-${get('month')}-${get('day')}T${get('hour')}:${get('minute')}:${get('second')}`;
}

export const APPOINTMENT_WORDS: Record<string, string> = {
  inspection: 'Roof inspection',
  adjuster_meeting: 'Meeting with your insurance adjuster',
  build_day: 'Build day',
};

export const ESTIMATE_WORDS: Record<string, string> = {
  draft: 'Being prepared',
  sent: 'Waiting for your signature',
  viewed: 'Waiting for your signature',
  signed: 'Signed',
  expired: 'Expired',
  declined: 'Declined',
};

export const INVOICE_WORDS: Record<string, string> = {
  draft: 'Being prepared',
  sent: 'Due',
  viewed: 'Due',
  partially_paid: 'Partly paid',
  paid: 'Paid',
  overdue: 'Past due',
  void: 'Cancelled',
  bad_debt: 'Closed',
};

/** A package's name as a heading: good → Good. */
export const tierName = (name: string): string =>
  name.length === 0 ? name : name[0]?.toUpperCase() + name.slice(1);

/** A link of the homeowner's pages from its API address: its path, on the origin they opened. */
export const localPath = (url: string | null): string =>
  url === null ? '' : new URL(url).pathname;
