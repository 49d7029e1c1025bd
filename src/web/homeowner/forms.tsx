import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AppEnv } from '../../platform/app-env';
import { ApiError } from '../../platform/errors';
import { Page } from '../ui/layout';

// What the homeowner's forms share: a small body, read as plain fields, and the page shown when
// a post did not come from a page svc served (a forged form, another page's token, one expired).

/** The pages' forms are a few hundred bytes; anything near this is not from them. */
const MAX_FORM_BYTES = 16 * 1024;

export const formLimit = bodyLimit({
  maxSize: MAX_FORM_BYTES,
  onError: (c) => c.html(<Refused what="The form is too large." />, 413),
});

/** A form's text fields (the first of each name); a file or a body that is not a form is none. */
export async function readForm(c: Context<AppEnv>): Promise<Record<string, string>> {
  const type = c.req.header('content-type') ?? '';
  if (
    !type.startsWith('application/x-www-form-urlencoded') &&
    !type.startsWith('multipart/form-data')
  ) {
    return {};
  }
  const body = await c.req.parseBody().catch(() => ({}));
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(body)) {
    if (typeof value === 'string') {
      out[name] = value;
    }
  }
  return out;
}

function Refused({ what }: { what: string }) {
  return (
    <Page title="Request refused" area="homeowner">
      <h1>Request refused</h1>
      <p>{what}</p>
      <p>Nothing was changed. Go back, reload the page and try again.</p>
    </Page>
  );
}

export const refused = (c: Context<AppEnv>) =>
  c.html(
    <Refused what="This form did not come from the page we showed, or that page has been open too long: open the link again." />,
    403,
  );

/** A service's answer for a record the homeowner may not see: undefined, for the 404 page. */
export function found<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch (err) {
    if (err instanceof ApiError && err.code === 'not_found') {
      return undefined;
    }
    throw err;
  }
}
