import type { Context, MiddlewareHandler, Next } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AppEnv } from '../app-env';
import { ApiError } from '../errors';
import { BODY_METHODS } from '../request-log';

// spec, Limits: files are capped at 25 MB, 413 payload_too_large. decisions.md: a MB is 2^20
// bytes, so a file of exactly 25 * 2^20 bytes is taken and one byte more is refused.
export const MAX_FILE_BYTES = 25 * 1024 * 1024;
/** What a multipart body may carry beside its file: boundaries, part headers, the text fields. */
export const MULTIPART_FRAMING_BYTES = 64 * 1024;
/** The largest body any request may send. */
export const MAX_BODY_BYTES = MAX_FILE_BYTES + MULTIPART_FRAMING_BYTES;

export const tooLarge = (what = 'the request body') =>
  new ApiError('payload_too_large', `${what} is larger than 25 MB (26,214,400 bytes)`);

export const isMultipart = (contentType: string | undefined): boolean =>
  contentType?.toLowerCase().startsWith('multipart/') ?? false;

/**
 * A streamed body (an upload), counted as it is read: it fails with a 413 the moment it passes
 * `max` bytes, and nothing is held, a 25 MB upload flowing through chunk by chunk. Once the
 * answer is made, whatever the route left unread is read away (`drainRest`), up to `max`: a client
 * still sending reads the answer rather than a reset connection.
 */
export class CountedBody {
  readonly stream: ReadableStream<Uint8Array>;
  readonly #source: ReadableStreamDefaultReader<Uint8Array>;
  readonly #max: number;
  #seen = 0;
  #ended = false;

  constructor(body: ReadableStream<Uint8Array>, max: number) {
    this.#source = body.getReader();
    this.#max = max;
    this.stream = new ReadableStream<Uint8Array>(
      {
        pull: async (controller) => {
          const next = await this.#read();
          if (next === undefined) {
            controller.close();
          } else {
            controller.enqueue(next);
          }
        },
        // A reader that gives up leaves the rest to drainRest, not to a cancelled connection.
        cancel: () => undefined,
      },
      { highWaterMark: 0 },
    );
  }

  /** Reads away what is left, in the background; stops at the cap (the adapter then closes). */
  drainRest(): void {
    void (async () => {
      while (!this.#ended) {
        await this.#read();
      }
    })().catch(() => undefined);
  }

  async #read(): Promise<Uint8Array | undefined> {
    if (this.#ended) {
      return undefined;
    }
    let next: Awaited<ReturnType<ReadableStreamDefaultReader<Uint8Array>['read']>>;
    try {
      next = await this.#source.read();
    } catch (err) {
      this.#ended = true; // the client went away
      throw err;
    }
    if (next.done) {
      this.#ended = true;
      return undefined;
    }
    this.#seen += next.value.byteLength;
    if (this.#seen > this.#max) {
      this.#ended = true;
      throw tooLarge();
    }
    return next.value;
  }
}

/** The declared length of a body, when it declares one the parser holds it to. */
function declaredLength(header: (name: string) => string | undefined): number | undefined {
  const declared = header('content-length');
  return declared !== undefined &&
    /^\d+$/.test(declared) &&
    header('transfer-encoding') === undefined
    ? Number(declared)
    : undefined;
}

/**
 * spec, Limits: a body over 25 MB is 413; mounted before anything reads a body.
 * - A declared Content-Length over the cap is refused before a byte is read, or the body touched
 *   (the Node adapter then reads away what the client still sends, and the client reads the 413).
 * - A multipart body (an upload) is counted as it streams, never buffered: its reader meets the
 *   413 as an error of the stream; and once answered, what the route left unread is read away.
 * - Any other body without a length is read here, up to the cap, as Hono's bodyLimit does: the
 *   JSON readers after it must meet a whole body, or a 413, never a body that fails half-way.
 */
export function limitBodies(): MiddlewareHandler<AppEnv> {
  const buffered = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: () => {
      throw tooLarge();
    },
  });
  // Not an async function for what carries no body: returning `next()` from one cost every read
  // a promise and two turns of the microtask queue.
  return (c, next) => (BODY_METHODS.has(c.req.method) ? limited(c, next) : next());

  async function limited(c: Context<AppEnv>, next: Next): ReturnType<MiddlewareHandler<AppEnv>> {
    const length = declaredLength((name) => c.req.header(name));
    if (length !== undefined && length > MAX_BODY_BYTES) {
      throw tooLarge();
    }
    const multipart = isMultipart(c.req.header('content-type'));
    if (length !== undefined && !multipart) {
      return next(); // the parser holds the body to it
    }
    const body = c.req.raw.body;
    if (body === null) {
      return next();
    }
    if (!multipart) {
      return buffered(c, next);
    }
    const counted = new CountedBody(body, MAX_BODY_BYTES);
    c.req.raw = new Request(c.req.raw, { body: counted.stream, duplex: 'half' } as RequestInit);
    try {
      await next();
    } finally {
      counted.drainRest();
    }
  }
}
