import { Readable } from 'node:stream';
import { Hono } from 'hono';
import { type AppEnv, appUrlFor } from '../../platform/app-env';
import { ApiError } from '../../platform/errors';
import { holderOf } from '../../platform/holder-of';
import type { Runtime } from '../../platform/runtime';
import { appContext } from '../../platform/service-context';
import { generatedPhoto } from './jpeg';
import { checkLink } from './links';
import { fileRecords } from './present';
import type { FileRecord } from './schema';

// decisions.md, Files: a file's `download_url` on the web app's origin, outside /v1: no API key,
// the signature is the credential. It answers the bytes as stored, streamed from disk, with the
// type svc read in them. An expired or forged link is 403 forbidden; an unknown file 404.

const noBytes = () => new ApiError('not_found', 'the bytes of this file are not on this server');

/** Types a browser may show in place; anything else comes as an attachment. */
const INLINE =
  /^(image\/(jpeg|png|gif|webp|avif|heic|heif|bmp|tiff)|video\/.*|audio\/.*|application\/pdf|text\/plain)$/;

export function downloadRoutes(rt: Runtime): Hono<AppEnv> {
  return new Hono<AppEnv>().get('/files/:id/download', async (c) => {
    const id = c.req.param('id').toLowerCase();
    const held = holderOf(rt.store, 'files', id);
    const ctx = held && appContext(rt, held.workspaceId, appUrlFor(rt.config, c.req.url));
    if (!held || !ctx || !fileRecords.visible(ctx, held.record)) {
      throw new ApiError('not_found', 'no such file');
    }
    const file = held.record;
    if (file.link_key === undefined || file.bytes === undefined) {
      throw noBytes();
    }
    const link = { id: file.id, link_key: file.link_key };
    const check = checkLink(
      link,
      c.req.query('expires'),
      c.req.query('signature'),
      ctx.clock.nowMs(),
    );
    if (check === 'forged') {
      throw new ApiError('forbidden', 'this download link is not one svc made for this file');
    }
    if (check === 'expired') {
      throw new ApiError(
        'forbidden',
        'this download link has expired; GET /v1/files/{id} answers a fresh download_url',
      );
    }
    const body = await bytesOf(rt, held.workspaceId, file);
    const headers = headersOf(file, body.size);
    // HEAD: the same headers, and no file opened that nobody would read.
    return new Response(c.req.method === 'HEAD' ? null : body.open(), { status: 200, headers });
  });
}

async function bytesOf(
  rt: Runtime,
  wsId: string,
  file: FileRecord,
): Promise<{ size: number; open: () => ReadableStream | Uint8Array }> {
  if (file.bytes === 'generated') {
    const made = new Uint8Array(generatedPhoto(file));
    return { size: made.length, open: () => made };
  }
  const kept = await rt.files.read(wsId, file.id);
  if (kept === undefined) {
    throw noBytes();
  }
  return { size: kept.size, open: () => Readable.toWeb(kept.open()) as ReadableStream };
}

function headersOf(file: FileRecord, size: number): Headers {
  const type = file.mime_type ?? 'application/octet-stream';
  const ascii = file.name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return new Headers({
    'Content-Type': type,
    'Content-Length': String(size),
    'Content-Disposition': `${INLINE.test(type) ? 'inline' : 'attachment'}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.name)}`,
    // An upload is the uploader's bytes: never sniffed into another type, never run as a page
    // of the web app's origin (an HTML or SVG file would otherwise carry its scripts).
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': 'sandbox',
    'Cache-Control': 'private, no-cache',
  });
}
