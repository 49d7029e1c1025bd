import { open } from 'node:fs/promises';

// What svc reads from a file's bytes (decisions.md, Files): its type from its magic numbers
// (file-type), and a photo's position and time from its EXIF (exifr). Both read the file's head
// from disk; neither library is loaded before the first upload.

export interface Inspected {
  mime_type: string | null;
  is_photo: boolean;
  is_video: boolean;
  latitude: number | null;
  longitude: number | null;
  taken_at: string | null;
}

/** Declared types svc believes of bytes that read as text: file-type names no text format. */
const TEXTUAL = /^(text\/[\w.+-]+|application\/(json|xml|[\w.-]+\+(json|xml))|image\/svg\+xml)$/;
const SNIFF_BYTES = 4096;

/** The type a part or a response declared, bare and in lower case. */
export const bareType = (declared: string | null | undefined): string | undefined =>
  declared?.split(';')[0]?.trim().toLowerCase() || undefined;

export async function inspect(
  path: string,
  size: number,
  declared: string | undefined,
  zone: string,
): Promise<Inspected> {
  const mime = size === 0 ? null : await mimeOf(path, declared);
  const is_photo = mime?.startsWith('image/') ?? false;
  const is_video = mime?.startsWith('video/') ?? false;
  const found = is_photo ? await exifOf(path, zone) : undefined;
  return {
    mime_type: mime,
    is_photo,
    is_video,
    latitude: found?.latitude ?? null,
    longitude: found?.longitude ?? null,
    taken_at: found?.taken_at ?? null,
  };
}

/**
 * The bytes' type: what file-type reads in them; else, for bytes that read as text, the type
 * declared when it is a text type, else text/plain; else null (svc does not take a client's word
 * for bytes it cannot read).
 */
async function mimeOf(path: string, declared: string | undefined): Promise<string | null> {
  const { fileTypeFromFile } = await import('file-type');
  const found = await fileTypeFromFile(path).catch(() => undefined);
  if (found) {
    return found.mime;
  }
  if (!(await readsAsText(path))) {
    return null;
  }
  return declared !== undefined && TEXTUAL.test(declared) ? declared : 'text/plain';
}

/** A byte that is no part of text: a control character but tab, line breaks, form feed, escape. */
const isControl = (b: number): boolean =>
  b === 0x7f || (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0c && b !== 0x0d && b !== 0x1b);

async function readsAsText(path: string): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(head, 0, SNIFF_BYTES, 0);
    const bytes = head.subarray(0, bytesRead);
    if (bytes.some(isControl)) {
      return false;
    }
    // A multi-byte character cut at the end of the sample is still text.
    const text = new TextDecoder('utf-8').decode(bytes.subarray(0, Math.max(0, bytesRead - 3)));
    return !text.includes('\uFFFD');
  } finally {
    await handle.close();
  }
}

interface Exif {
  latitude?: number;
  longitude?: number;
  DateTimeOriginal?: string;
  OffsetTimeOriginal?: string;
  CreateDate?: string;
  OffsetTimeDigitized?: string;
  GPSDateStamp?: string;
  GPSTimeStamp?: number[];
}

async function exifOf(
  path: string,
  zone: string,
): Promise<Pick<Inspected, 'latitude' | 'longitude' | 'taken_at'> | undefined> {
  const exifr = (await import('exifr')).default;
  const tags = (await exifr
    .parse(path, { tiff: true, exif: true, gps: true, ifd1: false, reviveValues: false })
    .catch(() => undefined)) as Exif | undefined;
  if (!tags) {
    return undefined;
  }
  const { latitude, longitude } = tags;
  const placed =
    typeof latitude === 'number' &&
    typeof longitude === 'number' &&
    Math.abs(latitude) <= 90 &&
    Math.abs(longitude) <= 180 &&
    // A camera without a fix often writes 0, 0: no place on land anyone photographs a roof.
    !(latitude === 0 && longitude === 0);
  return {
    latitude: placed ? round6(latitude) : null,
    longitude: placed ? round6(longitude) : null,
    taken_at: takenAt(tags, zone),
  };
}

const round6 = (n: number) => Math.round(n * 1e6) / 1e6;

const EXIF_TIME = /^(\d{4}):(\d{2}):(\d{2})[ T](\d{2}):(\d{2}):(\d{2})/;
const OFFSET = /^([+-])(\d{2}):?(\d{2})$/;

/**
 * decisions.md, Files: when the photo was taken. The original time (else the digitized one) with
 * the offset EXIF gives beside it; without an offset, the GPS time stamp (which is UTC); without
 * either, the wall-clock time read in the workspace's time zone, where its crews take photos.
 */
function takenAt(tags: Exif, zone: string): string | null {
  const local = tags.DateTimeOriginal ?? tags.CreateDate;
  const offset =
    tags.DateTimeOriginal !== undefined ? tags.OffsetTimeOriginal : tags.OffsetTimeDigitized;
  const wall = typeof local === 'string' ? wallClock(local) : undefined;
  const sign = typeof offset === 'string' ? OFFSET.exec(offset.trim()) : null;
  if (wall !== undefined && sign) {
    const minutes = Number(sign[2]) * 60 + Number(sign[3]);
    return iso(wall - (sign[1] === '-' ? -minutes : minutes) * 60_000);
  }
  const gps = gpsTime(tags);
  if (gps !== undefined) {
    return iso(gps);
  }
  return wall === undefined ? null : iso(inZone(wall, zone));
}

/** `YYYY:MM:DD HH:MM:SS` read as if it were UTC (ms); undefined when it is no real time. */
function wallClock(text: string): number | undefined {
  const m = EXIF_TIME.exec(text.trim());
  if (!m) {
    return undefined;
  }
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const ms = Date.UTC(y, mo - 1, d, h, mi, s);
  const back = new Date(ms);
  const real =
    y >= 1900 &&
    back.getUTCMonth() === mo - 1 &&
    back.getUTCDate() === d &&
    h < 24 &&
    mi < 60 &&
    s < 60;
  return real ? ms : undefined;
}

function gpsTime(tags: Exif): number | undefined {
  const [h, m, s] = Array.isArray(tags.GPSTimeStamp) ? tags.GPSTimeStamp : [];
  const day =
    typeof tags.GPSDateStamp === 'string' ? wallClock(`${tags.GPSDateStamp} 00:00:00`) : undefined;
  if (day === undefined || h === undefined || m === undefined || s === undefined) {
    return undefined;
  }
  return day + ((h * 60 + m) * 60 + Math.floor(s)) * 1000;
}

/** The instant a wall-clock time (given as if UTC) is in an IANA zone; UTC for a zone unknown. */
function inZone(wall: number, zone: string): number {
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
  } catch {
    return wall;
  }
  const offsetAt = (ms: number) => {
    const p: Record<string, number> = {};
    for (const part of format.formatToParts(ms)) {
      p[part.type] = Number(part.value);
    }
    const shown = Date.UTC(p.year ?? 0, (p.month ?? 1) - 1, p.day ?? 1, p.hour, p.minute, p.second);
    return shown - Math.floor(ms / 1000) * 1000;
  };
  // The offset at the first guess decides across a daylight-saving change.
  return wall - offsetAt(wall - offsetAt(wall));
}

const iso = (ms: number) => new Date(ms).toISOString();
