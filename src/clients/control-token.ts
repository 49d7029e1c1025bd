// svc's control API on a shared server (decisions.md, Control API access) asks for a credential:
// a workspace's control token or the admin token, given to a client by `--control-token`. Kept
// here by origin, and sent on every /__admin call there that names no credential itself.

const tokens = new Map<string, string>();

/** Sends `token` as the credential of every call to `origin`'s control API from now on. */
export function useControlToken(origin: string, token: string): void {
  tokens.set(origin, token);
}

/** Whether a token was given for `origin`'s control API. */
export const hasControlToken = (origin: string): boolean => tokens.has(origin);

/** `headers`, with the control API's credential when `url` goes there and they name none. */
export function withControlAuth(
  url: string,
  headers: Record<string, string> = {},
): Record<string, string> {
  if (tokens.size === 0 || !URL.canParse(url)) {
    return headers;
  }
  const target = new URL(url);
  const token = tokens.get(target.origin);
  const named = Object.keys(headers).some((h) => h.toLowerCase() === 'authorization');
  if (token === undefined || !target.pathname.startsWith('/__admin') || named) {
    return headers;
  }
  return { ...headers, Authorization: `Bearer ${token}` };
}

/** What a refusal of the control API means to the person at the command line: whom to ask. */
export function controlRefusal(status: number, base: string): string {
  if (status === 401) {
    return `${base} is a shared svc: give --control-token (a workspace's control token, or the admin token), or check the one given`;
  }
  if (status === 403) {
    return '--control-token reaches its own workspace alone: name that workspace, or give the admin token';
  }
  return `is ${base} a svc?`;
}
