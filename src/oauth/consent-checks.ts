import type { Runtime } from '../platform/runtime';
import { findApp, type OAuthAppView } from './consent';

// What the consent page checks of an authorization request (spec, Authentication 5), shared by
// the page and by POST /__admin/oauth/authorize, which answers what the page would have done for
// tests without a browser. A refusal names the page's title for it and the field it is about.

/** A parameter of the request: absent, its one value, or given more than once. */
export type Params = (name: string) => string | undefined | typeof REPEATED;
export const REPEATED = Symbol('repeated');

export class Refusal {
  constructor(
    readonly status: 400 | 403 | 413,
    readonly title: string,
    readonly message: string,
    readonly field: string | null = null,
  ) {}
}

/** The app and the address the request names, each checked exactly against the registration. */
export function checkClient(rt: Runtime, get: Params): { app: OAuthAppView; redirectUri: string } {
  const clientId = get('client_id');
  const app = typeof clientId === 'string' ? findApp(rt, clientId) : undefined;
  if (!app) {
    throw new Refusal(400, 'Unknown app', 'client_id names no registered app.', 'client_id');
  }
  const redirectUri = get('redirect_uri');
  if (typeof redirectUri !== 'string' || !app.redirect_uris.includes(redirectUri)) {
    throw new Refusal(
      400,
      'Wrong redirect address',
      `redirect_uri is not one of the addresses ${app.name} registered (it must match exactly).`,
      'redirect_uri',
    );
  }
  return { app, redirectUri };
}

/** spec: optional `scope=read`; without one the app asks to read and write. */
export function checkScope(get: Params): 'read' | 'write' {
  const scope = get('scope');
  if (scope === undefined || scope === '') {
    return 'write';
  }
  if (scope === 'read' || scope === 'write') {
    return scope;
  }
  throw new Refusal(400, 'Unknown access', 'scope must be read or write.', 'scope');
}

export function checkState(get: Params): string {
  const state = get('state');
  if (typeof state !== 'string' || state === '') {
    throw new Refusal(
      400,
      'Missing state',
      'state is required: the app checks it when you return.',
      'state',
    );
  }
  return state;
}
