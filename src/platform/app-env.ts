import type { Credential } from './auth/credentials';
import type { Config } from './config';
import type { ServiceContext } from './service-context';

/** A request's variables in Hono. */
export type AppEnv = {
  Variables: {
    requestId: string;
    credential: Credential | undefined;
    /** The credential a call was made with, even one refused as revoked (the request log's). */
    presented: Credential | undefined;
    ctx: ServiceContext;
    /**
     * `{app_url}` when it is svc's own address (decisions.md, Record URLs); unset when it is the
     * origin the caller used, read from the request when needed.
     */
    appUrl: string | undefined;
    /** The request has been counted by the rate limiter, and its headers stamped. */
    rateCounted: boolean;
    /** The id of the injected fault this call got, for the request log. */
    fault: string | undefined;
    /** The fault dropped the connection: nothing was answered. */
    dropped: boolean | undefined;
    /** On the control API: the one workspace a control token reaches; unset for the admin. */
    adminScope: string | undefined;
    /**
     * Several nodes: the workspace /v1's first check found as the last node left it (the one the
     * credential names), which its door then need not ask about again.
     */
    checkedWorkspace: string | undefined;
  };
};

/**
 * decisions.md, Record URLs: `{app_url}` is the address svc listens on, or (on a wildcard host, or
 * in-process) the origin the caller used. The API and the control API link records alike.
 */
export const appUrlFor = (
  config: Pick<Config, 'appUrlFromRequest' | 'publicUrl'>,
  requestUrl: string,
) => (config.appUrlFromRequest ? new URL(requestUrl).origin : config.publicUrl);

/** `{app_url}` for an answer made outside a workspace's context (an error's `doc_url`). */
export const requestAppUrl = (c: {
  get(key: 'appUrl'): string | undefined;
  req: { url: string };
}): string => c.get('appUrl') ?? new URL(c.req.url).origin;
