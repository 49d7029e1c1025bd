// One call through an in-process app (`app.request`), for the benchmarks that time control-API
// and API steps without a socket: JSON in (a string is sent as it is), its text out; anything
// but a 2xx stops the benchmark, naming the call.
import type { createApp } from '../src/app';

export type App = ReturnType<typeof createApp>;

export async function call(
  app: App,
  method: string,
  path: string,
  body?: unknown,
  key?: string,
): Promise<string> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (key) {
    headers.Authorization = `Bearer ${key}`;
  }
  const res = await app.request(path, {
    method,
    headers,
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await res.text();
  if (res.status >= 300) {
    throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
  }
  return text;
}
