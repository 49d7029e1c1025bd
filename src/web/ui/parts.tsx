import type { Child } from 'hono/jsx';

// The small pieces every record page (a family's, in its folder) is made of: figures as a person reads them, a list of facts,
// and the notices a deleted record (or a record on a deleted job) carries.

const USD = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** Dollars as the app shows them; a figure svc cannot work out is a dash, never $0.00. */
export const money = (amount: number | null | undefined): string =>
  amount === null || amount === undefined ? '—' : USD.format(amount);

/** An instant as a person reads it, in UTC (the clock's time zone); none is a dash. */
export const when = (iso: string | null | undefined): string =>
  iso ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` : '—';

/** A value of a record that may be empty. */
export const text = (value: string | number | null | undefined): string =>
  value === null || value === undefined || value === '' ? '—' : String(value);

/** Counts as a person reads them: 12,400. */
export const count = (n: number): string => n.toLocaleString('en-US');

/** A record's page from its API `url`: links stay on the origin the page was opened at. */
export const pathOf = (url: string): string => {
  const u = new URL(url);
  return `${u.pathname}${u.search}${u.hash}`;
};

export function Facts({ rows }: { rows: readonly (readonly [string, Child])[] }) {
  return (
    <dl class="facts">
      {rows.map(([label, value]) => (
        <>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </>
      ))}
    </dl>
  );
}

export type Tone = 'ok' | 'warn' | 'bad' | undefined;

export function Badge({ tone, children }: { tone?: Tone; children: Child }) {
  return <span class={tone ? `badge ${tone}` : 'badge'}>{children}</span>;
}

/** A list that shows the newest `shown` of `total`: says how many more there are. */
export function More({ shown, total, what }: { shown: number; total: number; what: string }) {
  return total > shown ? (
    <p class="muted">
      The newest {count(shown)} of {count(total)} {what}.
    </p>
  ) : null;
}

/** What a record on a deleted job says: it is gone from the API with the job, until restored. */
export function OnDeletedJob({ jobId }: { jobId: string }) {
  return (
    <p class="notice bad">
      This record is on a <a href={`/jobs/${jobId}`}>deleted job</a>: the API does not show it while
      the job is deleted, and it is purged with the job unless the job is restored.
    </p>
  );
}

/** A list cut at `shown` records, newest first: the rest are the API's to list. */
export function Capped({ more, shown, what }: { more: boolean; shown: number; what: string }) {
  return more ? (
    <p class="muted">
      The newest {count(shown)} {what}; the API lists them all.
    </p>
  ) : null;
}

export function Empty({ what }: { what: string }) {
  return <p class="muted">No {what}.</p>;
}
