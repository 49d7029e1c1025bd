import { type Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AppEnv } from '../../platform/app-env';
import type { PageTokens } from '../../platform/http/page-tokens';
import type { Runtime } from '../../platform/runtime';
import { restore } from '../../resources/recoverable';
import { binding } from '../ui/deleted-notice';
import { Page } from '../ui/layout';
import { notFoundPage } from '../ui/not-found';

// The trash of the app: a deleted job or contact waits 30 days, and its page offers Restore. The
// form posts to the same restore service as POST /__admin/{jobs,contacts}/{id}/restore, so the
// same `job.created` / `contact.created` fires.

function refused(c: Context<AppEnv>) {
  return c.html(
    <Page title="Form expired">
      <h1>This form cannot be used</h1>
      <p>
        It expired, or was not made by this page of this server (a restart forgets the forms it
        served). Nothing was changed. Go back and reload the page, then try again.
      </p>
    </Page>,
    403,
  );
}

/** The page's own form is a few hundred bytes. */
const MAX_FORM_BYTES = 16 * 1024;

export function restoreRoutes(rt: Runtime, tokens: PageTokens) {
  const app = new Hono<AppEnv>();
  for (const coll of ['jobs', 'contacts'] as const) {
    const noun = coll === 'jobs' ? 'job' : 'contact';
    app.post(
      `/${coll}/:id/restore`,
      bodyLimit({ maxSize: MAX_FORM_BYTES, onError: (c) => refused(c) }),
      async (c) => {
        const id = c.req.param('id').toLowerCase();
        const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
        const token = typeof form.token === 'string' ? form.token : undefined;
        if (!tokens.verify(binding(coll, id), token)) {
          return refused(c);
        }
        if (!restore(rt, coll, id)) {
          return notFoundPage(c, `${noun} to restore (never made, or purged after 30 days)`);
        }
        return c.redirect(`/${coll}/${id}?restored=1`, 303);
      },
    );
  }
  return app;
}
