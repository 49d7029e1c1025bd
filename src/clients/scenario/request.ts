import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Outgoing } from './http';
import type { AdminSpec, ClockSpec, RequestSpec } from './schema';
import { clockPath, type Session } from './session';

// How request, admin and clock steps become HTTP requests (their fields already substituted).

export class RequestProblem extends Error {}

export async function buildRequest(spec: RequestSpec, session: Session): Promise<Outgoing> {
  const headers: Record<string, string> = { ...(spec.headers ?? {}) };
  const named = (name: string) =>
    Object.keys(headers).some((h) => h.toLowerCase() === name.toLowerCase());
  const token = credential(spec.key ?? 'write', session);
  if (token !== undefined && !named('authorization')) {
    headers.Authorization = `Bearer ${token}`;
  }
  const out: Outgoing = {
    method: spec.method,
    url: withQuery(session.base + spec.path, spec.query),
    headers,
  };
  if (spec.body !== undefined) {
    if (!named('content-type')) {
      headers['Content-Type'] = 'application/json';
    }
    out.body = JSON.stringify(spec.body);
  } else if (spec.form !== undefined) {
    // numbers and booleans go as their text (`quantity: 2` is quantity=2)
    out.body = new URLSearchParams(
      Object.entries(spec.form).map(([k, v]): [string, string] => [k, String(v)]),
    );
  } else if (spec.multipart !== undefined) {
    out.body = await multipart(spec.multipart, session.dir);
  }
  return out;
}

export function buildAdmin(spec: AdminSpec, session: Session): Outgoing {
  return json(spec.method, withQuery(session.origin + spec.path, spec.query), spec.body);
}

export function buildClock(spec: ClockSpec, session: Session): Outgoing {
  const body = 'advance' in spec ? { advance_seconds: spec.advance } : { set: spec.set };
  return json('POST', `${session.origin}${clockPath(session)}`, body);
}

function json(method: string, url: string, body: unknown): Outgoing {
  return body === undefined
    ? { method, url }
    : { method, url, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) };
}

/** `write` (default), `read`, `none`, or a token (a captured one, substituted by now). */
function credential(key: string, session: Session): string | undefined {
  switch (key) {
    case 'write':
      return session.keys.write;
    case 'read':
      if (session.keys.read === undefined) {
        throw new RequestProblem('key: read, and no read key is known (--read-key)');
      }
      return session.keys.read;
    case 'none':
      return undefined;
    default:
      return key;
  }
}

function withQuery(url: string, query: RequestSpec['query']): string {
  if (!query || Object.keys(query).length === 0) {
    return url;
  }
  const params = new URLSearchParams(
    Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]),
  );
  return `${url}${url.includes('?') ? '&' : '?'}${params}`;
}

async function multipart(
  spec: NonNullable<RequestSpec['multipart']>,
  dir: string,
): Promise<FormData> {
  const form = new FormData();
  for (const [name, value] of Object.entries(spec.fields ?? {})) {
    form.append(name, String(value));
  }
  const file = spec.file;
  let bytes: Buffer;
  if (file.base64 !== undefined) {
    bytes = Buffer.from(file.base64, 'base64');
  } else if (file.path !== undefined) {
    try {
      bytes = await readFile(resolve(dir, file.path));
    } catch (err) {
      throw new RequestProblem(`multipart file ${file.path}: ${(err as Error).message}`);
    }
  } else {
    bytes = Buffer.from(file.content ?? '', 'utf8');
  }
  const type = file.content_type ?? 'application/octet-stream';
  form.append(file.field, new Blob([new Uint8Array(bytes)], { type }), file.filename);
  return form;
}
