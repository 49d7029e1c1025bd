import { randomBytes } from 'node:crypto';
import { type Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AppEnv } from '../platform/app-env';
import { CONTROL_TOKEN_PREFIX } from '../platform/auth';
import { sessionOf } from '../platform/http/admin-session';
import { PageTokens, pageSecret } from '../platform/http/page-tokens';
import { sha256Hex } from '../platform/ids';
import type { Runtime } from '../platform/runtime';
import { issueCode } from './consent';
import {
  checkClient,
  checkScope,
  checkState,
  type Params,
  REPEATED,
  Refusal,
} from './consent-checks';
import { consentPage, errorPage } from './consent-page';

/** What a consent page showed, and what its form must post back unchanged. */
const consentBinding = (b: {
  clientId: string;
  redirectUri: string;
  state: string;
  scope: string;
}): string[] => ['consent', b.clientId, b.redirectUri, b.state, b.scope];

// The consent page, GET and POST {app_url}/oauth/authorize (spec, Authentication 5; DESIGN.md,
// the consent page). A request the page cannot trust (unknown app, a redirect_uri not registered
// exactly, a bad response_type or scope) gets an error page and never a redirect: sending the
// browser to an unchecked address would make svc an open redirector.

const PATH = '/oauth/authorize';
/** The page's form is a few hundred bytes; anything near this is not from the page. */
export const MAX_FORM_BYTES = 64 * 1024;

/**
 * Whether the person proves their workspace by its control token: on a shared svc (started with
 * an admin token), unless they signed in with that token. Anyone may open the page there; only a
 * workspace's own people may connect it (spec: an owner or admin allows).
 */
const byToken = (c: Context<AppEnv>, rt: Runtime): boolean =>
  rt.config.adminToken !== null && sessionOf(c, rt, rt.config.adminToken)?.kind !== 'admin';

/** The workspaces the person may connect: in svc, every one, as its owner. */
function connectable(rt: Runtime): { id: string; name: string }[] {
  return [...rt.store.global.values('workspaces')]
    .map((ws) => ({ id: ws.id, name: ws.name }))
    .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
}

/** redirect_uri with `extra` added to its own query (kept byte for byte), before any fragment. */
export function redirectTo(redirectUri: string, extra: Record<string, string>): string {
  const hash = redirectUri.indexOf('#');
  const base = hash === -1 ? redirectUri : redirectUri.slice(0, hash);
  const fragment = hash === -1 ? '' : redirectUri.slice(hash);
  const added = Object.entries(extra)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join('&');
  const sep = !base.includes('?') ? '?' : /[?&]$/.test(base) ? '' : '&';
  return `${base}${sep}${added}${fragment}`;
}

function fromQuery(c: Context<AppEnv>): Params {
  return (name) => {
    const all = c.req.queries(name);
    return all === undefined || all.length === 0 ? undefined : all.length > 1 ? REPEATED : all[0];
  };
}

async function fromForm(c: Context<AppEnv>): Promise<Params> {
  let body: Record<string, string | File | (string | File)[]>;
  try {
    body = await c.req.parseBody({ all: true });
  } catch {
    throw new Refusal(400, 'Unreadable form', 'The form could not be read.');
  }
  return (name) => {
    const value = body[name];
    if (Array.isArray(value)) {
      return REPEATED;
    }
    return typeof value === 'string' ? value : undefined;
  };
}

/**
 * The headers of every answer here, and the nonce of the page's one inline style. No framing
 * (clickjacking on Allow), nothing from elsewhere, nothing cached, and no Referer carrying the
 * state or the code on to the app's page or anyone else. No `form-action`: Chromium applies it to
 * the redirect that follows the post too, and the app's address is not svc's.
 */
function guard(c: Context<AppEnv>): string {
  const pageNonce = randomBytes(16).toString('base64');
  c.header('X-Frame-Options', 'DENY');
  c.header(
    'Content-Security-Policy',
    // img-src data: for the empty icon the page names, so the browser asks for no /favicon.ico
    `default-src 'none'; style-src 'nonce-${pageNonce}'; img-src data:; base-uri 'none'; frame-ancestors 'none'`,
  );
  c.header('Cache-Control', 'no-store');
  c.header('Referrer-Policy', 'no-referrer');
  c.header('X-Content-Type-Options', 'nosniff');
  return pageNonce;
}

function refuse(c: Context<AppEnv>, refusal: Refusal, pageNonce: string) {
  return c.html(errorPage(refusal.title, refusal.message, pageNonce), refusal.status);
}

export function consentRoutes(rt: Runtime) {
  const tokens = new PageTokens(rt.clock, pageSecret(rt));
  return new Hono<AppEnv>()
    .get(PATH, (c) => showConsent(c, rt, tokens))
    .post(PATH, bodyLimit({ maxSize: MAX_FORM_BYTES, onError: tooLarge }), (c) =>
      answerConsent(c, rt, tokens),
    );
}

function tooLarge(c: Context<AppEnv>) {
  return refuse(c, new Refusal(413, 'Form too large', 'The form is too large.'), guard(c));
}

function showConsent(c: Context<AppEnv>, rt: Runtime, tokens: PageTokens) {
  const pageNonce = guard(c);
  try {
    return consentFor(c, rt, tokens, pageNonce);
  } catch (err) {
    if (err instanceof Refusal) {
      return refuse(c, err, pageNonce);
    }
    throw err;
  }
}

/** The page asking the person to allow the app the request names, once it is checked. */
function consentFor(c: Context<AppEnv>, rt: Runtime, tokens: PageTokens, pageNonce: string) {
  const get = fromQuery(c);
  const { app, redirectUri } = checkClient(rt, get);
  if (get('response_type') !== 'code') {
    throw new Refusal(400, 'Unsupported request', 'response_type must be code.');
  }
  const scope = checkScope(get);
  const state = checkState(get);
  const binding = consentBinding({ clientId: app.client_id, redirectUri, state, scope });
  return c.html(
    consentPage(
      {
        appName: app.name,
        clientId: app.client_id,
        redirectUri,
        state,
        scope,
        token: tokens.issue(binding),
        workspaces: byToken(c, rt) ? [] : connectable(rt),
        byToken: byToken(c, rt),
      },
      pageNonce,
    ),
  );
}

async function answerConsent(c: Context<AppEnv>, rt: Runtime, tokens: PageTokens) {
  const pageNonce = guard(c);
  try {
    return await decide(c, rt, tokens);
  } catch (err) {
    if (err instanceof Refusal) {
      return refuse(c, err, pageNonce);
    }
    throw err;
  }
}

/** The person's answer, sent back to the app: a code for the workspace picked, or a denial. */
async function decide(c: Context<AppEnv>, rt: Runtime, tokens: PageTokens) {
  const get = await fromForm(c);
  const { clientId, redirectUri, scope, state } = checkAnswer(rt, tokens, get);
  const decision = get('decision');
  if (decision === 'deny') {
    return c.redirect(redirectTo(redirectUri, { error: 'access_denied', state }), 302);
  }
  if (decision !== 'allow') {
    throw new Refusal(400, 'No decision', 'decision must be allow or deny.');
  }
  const workspaceId = byToken(c, rt) ? workspaceOfToken(rt, get) : get('workspace_id');
  if (typeof workspaceId !== 'string' || !rt.store.global.get('workspaces', workspaceId)) {
    throw new Refusal(400, 'Unknown workspace', 'Pick one of the workspaces listed.');
  }
  const code = issueCode(rt, { clientId, redirectUri, workspaceId, scope });
  return c.redirect(redirectTo(redirectUri, { code, state }), 302);
}

/** The workspace whose control token the form gives; a wrong one is refused. */
function workspaceOfToken(rt: Runtime, get: Params): string {
  const given = get('control_token');
  const token =
    typeof given === 'string' && given.startsWith(CONTROL_TOKEN_PREFIX)
      ? rt.store.global.get('control_tokens', sha256Hex(given))
      : undefined;
  if (!token) {
    throw new Refusal(
      400,
      'Not a control token',
      "That is not the control token of a workspace on this server: give your workspace's, from POST /__admin/workspaces.",
    );
  }
  return token.workspace_id;
}

/** The request the form posts back, checked again and bound to the page svc showed for it. */
function checkAnswer(rt: Runtime, tokens: PageTokens, get: Params) {
  const { app, redirectUri } = checkClient(rt, get);
  const scope = checkScope(get);
  const state = checkState(get);
  const token = get('page_token');
  const binding = consentBinding({ clientId: app.client_id, redirectUri, state, scope });
  if (!tokens.verify(binding, typeof token === 'string' ? token : undefined)) {
    throw new Refusal(
      403,
      'Request refused',
      'This answer did not come from the consent page svc showed, or that page has expired. Start again from the app.',
    );
  }
  return { clientId: app.client_id, redirectUri, scope, state };
}
