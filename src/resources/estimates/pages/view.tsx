import { type Context, Hono } from 'hono';
import { type AppEnv, appUrlFor } from '../../../platform/app-env';
import { ApiError } from '../../../platform/errors';
import type { PageDeps } from '../../../platform/family';
import type { PageTokens } from '../../../platform/http/page-tokens';
import type { Runtime } from '../../../platform/runtime';
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
  return new Hono<AppEnv>()
    .get('/view/estimates/:id', (c) => showEstimate(c, rt, tokens))
    .post('/view/estimates/:id/sign', formLimit, (c) => signFromPage(c, rt, tokens))
    .post('/view/estimates/:id/decline', formLimit, (c) => declineFromPage(c, rt, tokens));
}

// Only an estimate that was sent has a view_url (spec: "homeowner's view of the estimate").
function held(rt: Runtime, c: Context<AppEnv>): Held | undefined {
  const h = lookup(rt, 'estimates', c.req.param('id') ?? '', appUrlFor(rt.config, c.req.url));
  const rec = h && found(() => getEstimate(h.ctx, h.rec.id));
  return h && rec && rec.sent_at !== null ? { ctx: h.ctx, rec } : undefined;
}

function render(
  c: Context<AppEnv>,
  tokens: PageTokens,
  h: Held,
  status: 200 | 400 | 409,
  extra: Pick<EstimateView, 'error' | 'done' | 'filled'> = {},
) {
  return c.html(
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
}

/** A service's refusal as the page: the estimate as it now is, with why. */
function refusal(
  c: Context<AppEnv>,
  tokens: PageTokens,
  h: Held,
  err: unknown,
  filled?: EstimateView['filled'],
) {
  if (!(err instanceof ApiError) || (err.code !== 'conflict' && err.code !== 'invalid_request')) {
    throw err;
  }
  const now = { ...h, rec: getEstimate(h.ctx, h.rec.id) };
  return err.code === 'conflict'
    ? render(c, tokens, now, 409)
    : render(c, tokens, now, 400, { error: err.message, filled });
}

function showEstimate(c: Context<AppEnv>, rt: Runtime, tokens: PageTokens) {
  const h = held(rt, c);
  if (!h) {
    return notFoundPage(c, 'estimate', 'homeowner');
  }
  // decisions.md: every opening of the page is a view, as the real service counts them; a
  // HEAD (a link preview, a prefetch) opens nothing.
  const rec = c.req.method === 'HEAD' ? h.rec : viewEstimate(h.ctx, h.rec.id);
  return render(c, tokens, { ...h, rec }, 200);
}

async function signFromPage(c: Context<AppEnv>, rt: Runtime, tokens: PageTokens) {
  const h = held(rt, c);
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
    return render(c, tokens, h, 400, { error, filled });
  }
  if (h.rec.packages.length > 0 && tier === undefined) {
    return render(c, tokens, h, 400, { error: 'Choose a package to sign for.', filled });
  }
  try {
    const rec = signEstimate(h.ctx, h.rec.id, { signer_name: signer, selected_tier: tier });
    return render(c, tokens, { ...h, rec }, 200, { done: 'signed' });
  } catch (err) {
    return refusal(c, tokens, h, err, filled);
  }
}

async function declineFromPage(c: Context<AppEnv>, rt: Runtime, tokens: PageTokens) {
  const h = held(rt, c);
  if (!h) {
    return notFoundPage(c, 'estimate', 'homeowner');
  }
  const form = await readForm(c);
  if (!tokens.verify(declineBinding(h.rec.id), form.page_token)) {
    return refused(c);
  }
  try {
    return render(c, tokens, { ...h, rec: declineEstimate(h.ctx, h.rec.id) }, 200, {
      done: 'declined',
    });
  } catch (err) {
    return refusal(c, tokens, h, err);
  }
}
