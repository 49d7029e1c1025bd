import { SvcError } from './errors';

// The control API over HTTP, as every client of svc calls it: the library is one more client, so
// an in-process svc and a child process answer it alike.

export type Call = <T>(method: string, path: string, body?: unknown) => Promise<T>;

/** Calls `appUrl`'s control API; a refusal is a SvcError with the envelope's code and field. */
export function controlApi(appUrl: string): Call {
  return async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${appUrl}/__admin${path}`, {
      method,
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    const json = text === '' ? undefined : (JSON.parse(text) as unknown);
    if (!res.ok) {
      const error = (json as { error?: { code?: string; message?: string; field?: string } })
        ?.error;
      throw new SvcError(
        res.status,
        error?.code ?? 'server_error',
        `${method} /__admin${path} answered ${res.status}: ${error?.message ?? text}`,
        error?.field ?? null,
      );
    }
    return json as T;
  };
}

/** Every item of a control API list, page after page (`next_cursor`). */
export async function allPages<T>(call: Call, path: string): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | null = null;
  do {
    const sep: string = path.includes('?') ? '&' : '?';
    const page: { data: T[]; next_cursor: string | null } = await call(
      'GET',
      cursor === null ? path : `${path}${sep}cursor=${encodeURIComponent(cursor)}`,
    );
    items.push(...page.data);
    cursor = page.next_cursor;
  } while (cursor !== null);
  return items;
}
