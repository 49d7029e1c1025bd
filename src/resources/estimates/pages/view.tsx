import { type Context, Hono } from 'hono';
import { type AppEnv, appUrlFor } from '../../../platform/app-env';
import { ApiError } from '../../../platform/errors';
import type { PageDeps } from '../../../platform/family';
import type { ServiceContext } from '../../../platform/service-context';
import { formLimit, found, readForm, refused } from '../../../web/homeowner/forms';
import { lookup } from '../../../web/ui/lookup';
import { notFoundPage } from '../../../web/ui/not-found';
import type { Estimate } from '../schema';
import { declineEstimate, getEstimate, signEstimate, viewEstimate } from '../service';
import { estimateDoc } from './document';
import { EstimatePage, type EstimateView } from './view-page';

// An estimate's `view_url`: the homeowner reads it, chooses a package and signs by typing a name,
// or declines. Every move is the control API's own service (POST /__admin/estimates/{id}/view,
// /sign, /decline), so the same rules hold and the same events fire.

const signBinding = (id: string) => ['estimate-sign', id];
const declineBinding = (id: string) => ['estimate-decline', id];

/** decisions.md, Estimates: the sign service takes a name of up to 200 characters. */
const MAX_SIGNER = 200;

interface Held {
  ctx: ServiceContext;
  rec: Estimate;
}

export function estimateView({ rt, tokens }: PageDeps) {
  // Only an estimate that was sent has a view_url (spec: "homeowner's view of the estimate").
  const held = (c: Context<AppEnv>): Held | undefined => {
    const h = lookup(rt, 'estimates', c.req.param('id') ?? '', appUrlFor(rt.config, c.req.url));
    const rec = h && found(() => getEstimate(h.ctx, h.rec.id));
    return h && rec && rec.sent_at !== null ? { ctx: h.ctx, rec } : undefined;
  };
  const render = (
    c: Context<AppEnv>,
    h: Held,
    status: 200 | 400 | 409,
    extra: Pick<EstimateView, 'error' | 'done' | 'filled'> = {},
  ) =>
    c.html(
      <EstimatePage
        v={{
          rec: h.rec,
          doc: estimateDoc(h.ctx, h.rec),
          passed: h.rec.valid_until !== null && Date.parse(h.rec.valid_until) < h.ctx.clock.nowMs(),
          signToken: tokens.issue(signBinding(h.rec.id)),
          declineToken: tokens.issue(declineBinding(h.rec.id)),
          ...extra,
        }}
      />,
      status,
    );
  /** A service's refusal as the page: the estimate as it now is, with why. */
  const refusal = (c: Context<AppEnv>, h: Held, err: unknown, filled?: EstimateView['filled']) => {
    if (!(err instanceof ApiError) || (err.code !== 'conflict' && err.code !== 'invalid_request')) {
      throw err;
    }
    const now = { ...h, rec: getEstimate(h.ctx, h.rec.id) };
    return err.code === 'conflict'
      ? render(c, now, 409)
      : render(c, now, 400, { error: err.message, filled });
  };

  return new Hono<AppEnv>()
    .get('/view/estimates/:id', (c) => {
      const h = held(c);
      if (!h) {
        return notFoundPage(c, 'estimate', 'homeowner');
      }
      // decisions.md: every opening of the page is a view, as the real service counts them; a
      // HEAD (a link preview, a prefetch) opens nothing.
      const rec = c.req.method === 'HEAD' ? h.rec : viewEstimate(h.ctx, h.rec.id);
      return render(c, { ...h, rec }, 200);
    })
    .post('/view/estimates/:id/sign', formLimit, async (c) => {
      const h = held(c);
      if (!h) {
        return notFoundPage(c, 'estimate', 'homeowner');
      }
      const form = await readForm(c);
      if (!tokens.verify(signBinding(h.rec.id), form.page_token)) {
        return refused(c);
      }
      const signer = (form.signer_name ?? '').trim();
      const tier = form.selected_tier || undefined;
      const filled = { signer_name: signer, selected_tier: tier };
      if (signer === '' || signer.length > MAX_SIGNER) {
        const error = signer === '' ? 'Type your name to sign.' : 'That name is too long.';
        return render(c, h, 400, { error, filled });
      }
      if (h.rec.packages.length > 0 && tier === undefined) {
        return render(c, h, 400, { error: 'Choose a package to sign for.', filled });
      }
      try {
        const rec = signEstimate(h.ctx, h.rec.id, { signer_name: signer, selected_tier: tier });
        return render(c, { ...h, rec }, 200, { done: 'signed' });
      } catch (err) {
        return refusal(c, h, err, filled);
      }
    })
    .post('/view/estimates/:id/decline', formLimit, async (c) => {
      const h = held(c);
      if (!h) {
        return notFoundPage(c, 'estimate', 'homeowner');
      }
      const form = await readForm(c);
      if (!tokens.verify(declineBinding(h.rec.id), form.page_token)) {
        return refused(c);
      }
      try {
        return render(c, { ...h, rec: declineEstimate(h.ctx, h.rec.id) }, 200, {
          done: 'declined',
        });
      } catch (err) {
        return refusal(c, h, err);
      }
    });
}
