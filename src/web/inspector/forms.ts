import type { Context, Handler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AppEnv } from '../../platform/app-env';
import { ApiError } from '../../platform/errors';
import type { PageTokens } from '../../platform/http/page-tokens';
import type { Runtime } from '../../platform/runtime';
import type { Move } from './clock';
import { type FlashStore, type Shown, withFlash } from './flash';
import { refusedPage } from './parts';

/** What every page and action of the inspector shares. */
export interface Inspector {
  rt: Runtime;
  tokens: PageTokens;
  flash: FlashStore;
}

/** A posted form's fields; a field sent twice counts as its last value. */
export type Form = Record<string, string>;

/** What an action did: said on the page it redirects to, with any secret shown once. */
export interface Done {
  text: string;
  shown?: Shown[];
  /** Where to go instead of the action's usual page (the workspace a form just made). */
  back?: string;
  /** A clock form's move, which the page it lands on shows, whichever node makes it. */
  move?: Move;
}

/** The inspector's forms are a few fields; anything near this is not from its pages. */
const MAX_FORM_BYTES = 64 * 1024;

export const field = (form: Form, name: string): string | undefined => {
  const value = form[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
};

async function readForm(c: Context<AppEnv>): Promise<Form | undefined> {
  try {
    const body = await c.req.parseBody();
    const form: Form = {};
    for (const [name, value] of Object.entries(body)) {
      if (typeof value === 'string') {
        form[name] = value;
      }
    }
    return form;
  } catch {
    return undefined;
  }
}

/**
 * A form's POST: refused (403, nothing changed) unless it carries the token its page was given
 * for `binding`; else `run` (a control-API service), then 303 back to `back` with what happened,
 * an ApiError included: a person reads it on the page, never a 500.
 */
export function action(
  ins: Inspector,
  binding: (c: Context<AppEnv>) => string[],
  back: (c: Context<AppEnv>) => string,
  run: (c: Context<AppEnv>, form: Form) => Done | Promise<Done>,
): Handler<AppEnv> {
  return async (c) => {
    const form = await readForm(c);
    if (!form || !ins.tokens.verify(binding(c), form.token)) {
      return c.html(
        refusedPage(
          'This form did not come from a page svc showed, or that page has expired. Reload the page and try again.',
        ),
        403,
      );
    }
    let to = back(c);
    let id: string;
    try {
      const done = await run(c, form);
      to = done.back ?? to;
      id = await ins.flash.put({
        kind: 'ok',
        text: done.text,
        ...(done.shown ? { shown: done.shown } : {}),
        ...(done.move ? { move: done.move } : {}),
      });
    } catch (err) {
      if (!(err instanceof ApiError)) {
        throw err;
      }
      const where = err.field ? ` (${err.field})` : '';
      id = await ins.flash.put({ kind: 'bad', text: `${err.message}${where}` });
    }
    return c.redirect(withFlash(to, id), 303);
  };
}

/** Every form post of the inspector: a body larger than any of its forms is refused unread. */
export const formLimit = bodyLimit({
  maxSize: MAX_FORM_BYTES,
  onError: (c) => c.html(refusedPage('The form is larger than any page of svc sends.'), 413),
});

/** A route's id, as ids are compared (lower case); '' when the route has none. */
export const idParam = (c: Context<AppEnv>, name = 'id'): string =>
  (c.req.param(name) ?? '').toLowerCase();
