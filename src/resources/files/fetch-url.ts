import type { LookupAddress } from 'node:dns';
import { lookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ApiError } from '../../platform/errors';
import type { FileStorage, Incoming } from '../../platform/files/storage';
import { MAX_FILE_BYTES, tooLarge } from '../../platform/http/body-limit';
import { checkReachable, isLocalAddress, parseTarget } from '../webhooks/api';

// decisions.md, Files: `POST /files` with `{url}` has svc fetch the file itself, under the rules
// of a webhook target (spec, POST /webhooks): https only, and no host that is or resolves to a
// loopback, private, link-local or other special-use address; every redirect is checked the same
// way. The address checked is the address connected to (the lookup that connects is the one that
// checks), so a name cannot resolve to a public address for the check and a private one for the
// connection. `svc serve --allow-local-targets` lifts these rules, as it does for webhooks.

const FIELD = 'url';
const MAX_REDIRECTS = 5;
/** How long a fetch may take in all, however steadily the bytes come. */
const TOTAL_MS = 120_000;

export interface Fetched {
  incoming: Incoming;
  size: number;
  /** The last segment of the URL's path, when it has one. */
  filename: string | undefined;
  declaredType: string | undefined;
}

export type Resolve = (host: string) => Promise<LookupAddress[]>;

export interface FetchOptions {
  allowLocal: boolean;
  /** How long the origin may keep svc waiting for an answer, or for the next bytes. */
  idleMs: number;
  storage: FileStorage;
  /** Name resolution (the system's resolver; tests give their own). */
  resolve?: Resolve;
}

const refuse = (why: string) => new ApiError('invalid_request', `url ${why}`, FIELD);
const LOCAL =
  'must be publicly reachable, not a loopback, private or link-local address (svc serve --allow-local-targets accepts it)';

const systemResolve: Resolve = (host) => lookup(host, { all: true, verbatim: true });

/** Fetches a file into a temp file; rejects (keeping nothing) with a 400 on `url`, or a 413. */
export async function fetchUrl(text: string, opts: FetchOptions): Promise<Fetched> {
  const first = parseTarget(text, FIELD, opts.allowLocal);
  const deadline = AbortSignal.timeout(TOTAL_MS);
  let url = first;
  for (let hop = 0; ; hop++) {
    await checkReachable(url, FIELD, opts.allowLocal);
    const answer = await get(url, opts, deadline);
    const res = answer.res;
    const status = res.statusCode ?? 0;
    if (status >= 300 && status < 400) {
      res.resume();
      const location = res.headers.location;
      if (location === undefined) {
        throw refuse(`answered ${status} without a Location to follow`);
      }
      if (hop === MAX_REDIRECTS) {
        throw refuse(`redirected more than ${MAX_REDIRECTS} times`);
      }
      url = redirectTarget(location, url, opts.allowLocal);
      continue;
    }
    if (status < 200 || status >= 300) {
      res.resume();
      const said = `${status} ${res.statusMessage ?? ''}`.trim();
      throw refuse(`answered ${said}; only a 2xx answer is taken`);
    }
    return await download(answer, opts, first, url, deadline);
  }
}

function redirectTarget(location: string, from: URL, allowLocal: boolean): URL {
  let next: string;
  try {
    next = new URL(location, from).href;
  } catch {
    throw refuse(`redirected to ${location}, which is not a URL`);
  }
  try {
    return parseTarget(next, FIELD, allowLocal);
  } catch {
    throw refuse(`redirected to ${next}, which is not an https URL`);
  }
}

/** An answer, and why its connection was cut when svc cut it. */
interface Answer {
  res: IncomingMessage;
  cut(): ApiError | undefined;
}

/** One request to `url`, connected through the lookup that checks. */
function get(url: URL, opts: FetchOptions, deadline: AbortSignal): Promise<Answer> {
  const options: RequestOptions = {
    method: 'GET',
    headers: { 'User-Agent': 'svc-file-fetch', Accept: '*/*' },
    agent: false, // a connection per request: none checked for one host serves another
    lookup: pinnedLookup(opts.allowLocal, opts.resolve ?? systemResolve),
    signal: deadline,
  };
  return new Promise((resolve, reject) => {
    let cut: ApiError | undefined;
    let answered = false;
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(url, options, (res) => {
      answered = true;
      resolve({ res, cut: () => cut });
    });
    // Idle time: before the answer, and between its chunks after it.
    req.setTimeout(opts.idleMs, () => {
      const seconds = opts.idleMs / 1000;
      cut = refuse(
        answered
          ? `stalled for ${seconds} seconds while sending the file`
          : `did not answer within ${seconds} seconds`,
      );
      req.destroy(cut);
    });
    req.on('error', (err) => reject(fetchError(err, url)));
    req.end();
  });
}

/**
 * The lookup a connection makes: every address the name resolves to is checked (one refused
 * refuses the name), and the connection goes to one of those checked. Node asks for every address
 * (`all`) when it races IPv4 and IPv6.
 */
function pinnedLookup(allowLocal: boolean, resolve: Resolve): LookupFunction {
  return (host, options, callback) => {
    resolve(host).then(
      (found) => {
        const addresses = found.filter((a) => isIP(a.address) !== 0);
        if (addresses.length === 0) {
          callback(Object.assign(new Error(`${host} has no address`), { code: 'ENOTFOUND' }), '');
        } else if (!allowLocal && addresses.some((a) => isLocalAddress(a.address))) {
          callback(refuse(LOCAL), '');
        } else if (options.all) {
          (callback as unknown as (err: null, all: LookupAddress[]) => void)(null, addresses);
        } else {
          const [pick] = addresses as [LookupAddress];
          callback(null, pick.address, pick.family);
        }
      },
      (err: NodeJS.ErrnoException) => callback(err, ''),
    );
  };
}

function fetchError(err: unknown, url: URL): ApiError {
  if (err instanceof ApiError) {
    return err;
  }
  const e = err as NodeJS.ErrnoException;
  if (e.name === 'TimeoutError' || e.name === 'AbortError') {
    return refuse(`took longer than ${TOTAL_MS / 1000} seconds`);
  }
  if (e.code === 'ENOTFOUND' || e.code === 'EAI_AGAIN') {
    return refuse(`names a host that does not resolve: ${url.hostname}`);
  }
  if (e.code === 'ETIMEDOUT') {
    return refuse(`could not be reached: ${url.hostname} did not answer`);
  }
  return refuse(`could not be fetched: ${e.code ?? e.message}`);
}

async function download(
  { res, cut }: Answer,
  opts: FetchOptions,
  first: URL,
  last: URL,
  deadline: AbortSignal,
): Promise<Fetched> {
  const declared = Number(res.headers['content-length']);
  if (Number.isFinite(declared) && declared > MAX_FILE_BYTES) {
    res.destroy();
    throw tooLarge('the file at url');
  }
  const incoming = await opts.storage.incoming();
  let size = 0;
  const counted = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      done(size > MAX_FILE_BYTES ? tooLarge('the file at url') : null, chunk);
    },
  });
  try {
    await pipeline(res, counted, incoming.writable());
  } catch (err) {
    await incoming.discard();
    throw cut() ?? (deadline.aborted ? fetchError(deadline.reason, last) : fetchError(err, last));
  }
  return {
    incoming,
    size,
    filename: lastSegment(first) ?? lastSegment(last),
    declaredType: res.headers['content-type'],
  };
}

function lastSegment(url: URL): string | undefined {
  const segment = url.pathname.split('/').pop() ?? '';
  try {
    return decodeURIComponent(segment) || undefined;
  } catch {
    return segment || undefined;
  }
}
