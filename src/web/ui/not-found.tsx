import type { Context } from 'hono';
import type { AppEnv } from '../../platform/app-env';
import { Page } from './layout';

/**
 * A page's own 404: HTML for a person, where the API answers its JSON envelope. A homeowner's
 * page names no svc page to go to (a homeowner is not a developer).
 */
export function notFoundPage(c: Context<AppEnv>, what: string, area: 'app' | 'homeowner' = 'app') {
  return c.html(
    <Page title="Not found" area={area}>
      <h1>Not found</h1>
      {area === 'homeowner' ? (
        <p>
          This {what} is not here. The link may be mistyped or no longer in use: ask the company
          that sent it for a new one.
        </p>
      ) : (
        <>
          <p>
            No {what} here. It may be in a workspace this server does not hold, or the address was
            mistyped.
          </p>
          <p>
            <a href="/">All workspaces</a>
          </p>
        </>
      )}
    </Page>,
    404,
  );
}

/**
 * A browser's request for an address the web app does not have (Accept: text/html, outside /v1
 * and /__admin): the same status and Allow as the API's answer, as a page rather than JSON.
 */
export async function missingPage(c: Context<AppEnv>, api: Response): Promise<Response> {
  const accepts = c.req.header('accept') ?? '';
  const path = c.req.path;
  if (!accepts.includes('text/html') || /^\/(v1|__admin)(\/|$)/.test(path)) {
    return api;
  }
  if (api.status !== 405) {
    return notFoundPage(c, 'page');
  }
  const allow = api.headers.get('Allow') ?? '';
  const page = await c.html(
    <Page title="Not allowed">
      <h1>Not allowed</h1>
      <p>
        This address takes {allow || 'no method'}, not {c.req.method}: it is the target of a form,
        not a page to open.
      </p>
      <p>
        <a href="/">All workspaces</a>
      </p>
    </Page>,
    405,
  );
  page.headers.set('Allow', allow);
  return page;
}
