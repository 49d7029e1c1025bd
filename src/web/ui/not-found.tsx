import type { Context } from 'hono';
import type { AppEnv } from '../../platform/context';
import { Page } from './layout';

/** A page's own 404: HTML for a person, where the API answers its JSON envelope. */
export function notFoundPage(c: Context<AppEnv>, what: string) {
  return c.html(
    <Page title="Not found">
      <h1>Not found</h1>
      <p>
        No {what} here. It may be in a workspace this server does not hold, or the address was
        mistyped.
      </p>
      <p>
        <a href="/">All workspaces</a>
      </p>
    </Page>,
    404,
  );
}
