import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import type { z } from 'zod';
import { controlRefusal } from '../control-token';
import type { Traffic } from './compute';
import { readDocument } from './document';
import {
  answerNeeded,
  type Delivery,
  DeliverySchema,
  type LogEntry,
  LogEntrySchema,
  SubscriptionSchema,
  subscriptionIdsOf,
} from './entries';
import { type Get, httpGet, textOf } from './http';

// Reads a running svc: its document, its request log and its delivery log. Every failure is a
// SourceProblem, one line naming what went wrong.

export class SourceProblem extends Error {}

const PAGE = 200;

/** `http://host:port`, from its address, its /v1 or its /__admin, as svc replay takes it. */
export const baseOf = (from: string): string =>
  from.replace(/\/+$/, '').replace(/\/(v1|__admin)$/, '');

export async function readTraffic(
  from: string,
  workspaceId: string | undefined,
  get: Get = httpGet,
): Promise<Traffic> {
  const base = baseOf(from);
  const read = reader(get, base);
  const doc = readDocument((await read('/v1/openapi.json', 'its OpenAPI document')).json);
  if (!doc) {
    throw new SourceProblem(`${base}/v1/openapi.json is no OpenAPI document: is ${base} a svc?`);
  }
  if (workspaceId !== undefined) {
    const path = `/__admin/workspaces/${encodeURIComponent(workspaceId)}`;
    if ((await read(path, 'a workspace', true)).status !== 200) {
      throw new SourceProblem(`${base} has no workspace ${workspaceId}`);
    }
  }
  const scope: Record<string, string> =
    workspaceId === undefined ? {} : { workspace_id: workspaceId };
  const entries = await readLog(get, base, scope);
  const subscriptions = (await pages(read, '/__admin/webhooks', scope)).map((s) =>
    parse(SubscriptionSchema, s, 'a subscription'),
  );
  // decisions.md, svc coverage: the delivery log outlives a deleted subscription (a suite's
  // teardown deletes its own), so the ids the traffic's POST /v1/webhooks made are read too.
  const ids = new Set([...subscriptions.map((s) => s.id), ...entries.flatMap(subscriptionIdsOf)]);
  const deliveries: Delivery[] = [];
  for (const id of ids) {
    const found = await pages(read, `/__admin/webhooks/${id}/deliveries`, {});
    deliveries.push(...found.map((d) => parse(DeliverySchema, d, 'a delivery')));
  }
  return { doc, entries, deliveries, subscriptions, workspaceId: workspaceId ?? null };
}

type Read = (
  path: string,
  what: string,
  missingOk?: boolean,
) => Promise<{ status: number; json: unknown }>;

/**
 * GETs `base + path` as JSON: an answer other than 200 (or a 404 where something may be missing),
 * or no JSON, means the address is not a svc coverage can read.
 */
function reader(get: Get, base: string): Read {
  return async (path, what, missingOk = false) => {
    const url = `${base}${path}`;
    const answer = await get(url);
    if ('error' in answer) {
      throw new SourceProblem(`cannot reach ${base}: ${answer.error}`);
    }
    const text = await textOf(answer.body).catch((err: Error) => {
      throw new SourceProblem(`${url} broke off: ${err.message}`);
    });
    if (answer.status === 404 && missingOk) {
      return { status: 404, json: undefined };
    }
    if (answer.status !== 200) {
      throw new SourceProblem(
        `${url} answered ${answer.status} for ${what}: ${controlRefusal(answer.status, base)}`,
      );
    }
    const json = jsonOf(text);
    if (json === undefined) {
      throw new SourceProblem(`${url} answered no JSON for ${what}: is ${base} a svc?`);
    }
    return { status: 200, json };
  };
}

/**
 * The request log, oldest first, read a line at a time; an answer body is kept only where
 * coverage reads it (an error's code, a subscription's id), so memory follows the entries.
 */
async function readLog(get: Get, base: string, scope: Record<string, string>): Promise<LogEntry[]> {
  const url = `${base}/__admin/requests?${new URLSearchParams({ format: 'jsonl', ...scope })}`;
  const answer = await get(url);
  if ('error' in answer) {
    throw new SourceProblem(`cannot reach ${base}: ${answer.error}`);
  }
  if (answer.status !== 200) {
    await textOf(answer.body).catch(() => ''); // read off, so the socket is let go
    throw new SourceProblem(
      `${url} answered ${answer.status} for its request log: ${controlRefusal(answer.status, base)}`,
    );
  }
  const entries: LogEntry[] = [];
  const input = Readable.from(answer.body);
  try {
    for await (const line of createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })) {
      if (line.trim() !== '') {
        const entry = parse(LogEntrySchema, jsonOf(line), 'a request-log line');
        entries.push(answerNeeded(entry) ? entry : { ...entry, response_body: null });
      }
    }
  } catch (err) {
    throw err instanceof SourceProblem
      ? err
      : new SourceProblem(`${url} broke off: ${(err as Error).message}`);
  }
  const at = new Map(entries.map((e) => [e, Date.parse(e.at)]));
  return entries.sort((a, b) => (at.get(a) ?? 0) - (at.get(b) ?? 0));
}

/** Every item of a paged control-API list; none when the list is not there (404). */
async function pages(read: Read, path: string, scope: Record<string, string>): Promise<unknown[]> {
  const items: unknown[] = [];
  let cursor: string | null = null;
  do {
    const query = new URLSearchParams({ limit: String(PAGE), ...scope });
    if (cursor !== null) {
      query.set('cursor', cursor);
    }
    const page = await read(`${path}?${query}`, 'a list', true);
    if (page.status === 404) {
      return items;
    }
    const body = page.json as { data?: unknown; has_more?: unknown; next_cursor?: unknown };
    if (!Array.isArray(body?.data)) {
      throw new SourceProblem(`${path} answered no list: is this a svc?`);
    }
    items.push(...body.data);
    cursor =
      body.has_more === true && typeof body.next_cursor === 'string' ? body.next_cursor : null;
  } while (cursor !== null);
  return items;
}

function jsonOf(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function parse<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    throw new SourceProblem(`the svc answered ${what} coverage cannot read: is it a svc?`);
  }
  return parsed.data;
}
