import type { PageTokens } from '../../platform/http/page-tokens';
import { when } from './parts';

// What the page of a deleted job or contact says: when it goes for good, and the Restore form
// (posted to the web app's restore route, src/web/pages/restore.tsx).

export type Restorable = 'jobs' | 'contacts';

/** spec, Limits: a deleted job or contact is recoverable for 30 days, then purged. */
const RETAIN_MS = 30 * 24 * 60 * 60 * 1000;

export const binding = (coll: Restorable, id: string) => ['restore', coll, id];

/** When a record deleted at `deletedAt` is purged. */
export const purgeAt = (deletedAt: string): string =>
  new Date(Date.parse(deletedAt) + RETAIN_MS).toISOString();

export function DeletedNotice(props: {
  coll: Restorable;
  id: string;
  deletedAt: string;
  nowMs: number;
  tokens: PageTokens;
  what: string;
}) {
  const purge = purgeAt(props.deletedAt);
  const open = Date.parse(purge) > props.nowMs;
  return (
    <div class="notice bad" id="deleted">
      <p>
        This {props.what} was deleted on {when(props.deletedAt)}. The API no longer shows it
        {props.coll === 'jobs' ? ', nor anything on it' : ''}.{' '}
        {open
          ? `It is purged for good on ${when(purge)} unless restored.`
          : 'Its 30 days are over.'}
      </p>
      {open ? (
        <form method="post" action={`/${props.coll}/${props.id}/restore`} class="inline">
          <input
            type="hidden"
            name="token"
            value={props.tokens.issue(binding(props.coll, props.id))}
          />
          <button type="submit" class="primary">
            Restore
          </button>
        </form>
      ) : null}
    </div>
  );
}
