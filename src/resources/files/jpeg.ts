import { createHash } from 'node:crypto';

// A minimal baseline JPEG writer, for the photos svc makes itself: a seeded photo's bytes (made
// from its record whenever it is downloaded) and the tests' fixture photo. The picture is flat
// 8x8 blocks (only each block's DC coefficient is coded), which every decoder reads; an APP1
// segment carries the EXIF that a camera would write: GPS position and DateTimeOriginal.

/** What the EXIF segment says; each part is left out when not given. */
export interface ExifFields {
  latitude?: number;
  longitude?: number;
  /** Wall-clock time as EXIF writes it, `YYYY:MM:DD HH:MM:SS`. */
  dateTimeOriginal?: string;
  /** Its offset from UTC, `+00:00`; cameras often write none. */
  offsetTimeOriginal?: string;
}

export interface JpegPicture {
  /** Multiples of 8. */
  width: number;
  height: number;
  /** The colour of the 8x8 block at column `bx`, row `by`, as [R, G, B] from 0 to 255. */
  block(bx: number, by: number): readonly [number, number, number];
  exif?: ExifFields;
}

// --- EXIF (a little-endian TIFF structure inside APP1) --------------------------------------

type IfdEntry = { tag: number; type: number; count: number; data: Buffer };

const ascii = (tag: number, text: string): IfdEntry => ({
  tag,
  type: 2,
  count: text.length + 1,
  data: Buffer.from(`${text}\0`, 'latin1'),
});

const long = (tag: number, value: number): IfdEntry => {
  const data = Buffer.alloc(4);
  data.writeUInt32LE(value);
  return { tag, type: 4, count: 1, data };
};

/** Degrees as EXIF's three rationals: degrees, minutes, seconds (to 1/10,000 s). */
function dms(tag: number, degrees: number): IfdEntry {
  const abs = Math.abs(degrees);
  const d = Math.floor(abs);
  const m = Math.floor((abs - d) * 60);
  const s = Math.round(((abs - d) * 60 - m) * 60 * 10_000);
  const data = Buffer.alloc(24);
  [d, 1, m, 1, s, 10_000].forEach((v, i) => {
    data.writeUInt32LE(v, i * 4);
  });
  return { tag, type: 5, count: 3, data };
}

const pad2 = (n: number) => n + (n % 2);
const ifdSize = (entries: IfdEntry[]) =>
  2 +
  entries.length * 12 +
  4 +
  entries.reduce((n, e) => n + (e.data.length > 4 ? pad2(e.data.length) : 0), 0);

/** One IFD placed at `at` (an offset in the TIFF structure), its long values after it. */
function ifd(entries: IfdEntry[], at: number): Buffer {
  const sorted = [...entries].sort((a, b) => a.tag - b.tag);
  const out = Buffer.alloc(ifdSize(sorted));
  out.writeUInt16LE(sorted.length, 0);
  let data = 2 + sorted.length * 12 + 4;
  sorted.forEach((e, i) => {
    const p = 2 + i * 12;
    out.writeUInt16LE(e.tag, p);
    out.writeUInt16LE(e.type, p + 2);
    out.writeUInt32LE(e.count, p + 4);
    if (e.data.length <= 4) {
      e.data.copy(out, p + 8);
    } else {
      out.writeUInt32LE(at + data, p + 8);
      e.data.copy(out, data);
      data += pad2(e.data.length);
    }
  });
  return out; // the next-IFD offset stays 0: one image
}

function exifSegment(fields: ExifFields): Buffer {
  const exif: IfdEntry[] = [{ tag: 0x9000, type: 7, count: 4, data: Buffer.from('0232') }];
  if (fields.dateTimeOriginal !== undefined) {
    exif.push(ascii(0x9003, fields.dateTimeOriginal));
  }
  if (fields.offsetTimeOriginal !== undefined) {
    exif.push(ascii(0x9011, fields.offsetTimeOriginal));
  }
  const gps: IfdEntry[] = [];
  const { latitude, longitude } = fields;
  if (latitude !== undefined && longitude !== undefined) {
    gps.push(
      { tag: 0x0000, type: 1, count: 4, data: Buffer.from([2, 3, 0, 0]) },
      ascii(0x0001, latitude < 0 ? 'S' : 'N'),
      dms(0x0002, latitude),
      ascii(0x0003, longitude < 0 ? 'W' : 'E'),
      dms(0x0004, longitude),
    );
  }
  // IFD0 points at the Exif IFD and the GPS IFD, which follow it.
  const root = (exifAt: number, gpsAt: number) => [
    long(0x8769, exifAt),
    ...(gps.length > 0 ? [long(0x8825, gpsAt)] : []),
  ];
  const exifAt = 8 + ifdSize(root(0, 0));
  const gpsAt = exifAt + ifdSize(exif);
  const header = Buffer.from([0x49, 0x49, 0x2a, 0x00, 0x08, 0x00, 0x00, 0x00]);
  const tiff = Buffer.concat([
    header,
    ifd(root(exifAt, gpsAt), 8),
    ifd(exif, exifAt),
    ...(gps.length > 0 ? [ifd(gps, gpsAt)] : []),
  ]);
  return segment(0xe1, Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]));
}

// --- The picture --------------------------------------------------------------------------

function segment(marker: number, body: Buffer): Buffer {
  const head = Buffer.from([0xff, marker, 0, 0]);
  head.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([head, body]);
}

// The standard DC table (ITU T.81, K.3) codes every difference a flat block needs; the AC table
// holds one symbol, end-of-block, as every block's AC coefficients are all zero.
const DC_BITS = [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0];
const DC_VALUES = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
const AC_BITS = [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
const AC_VALUES = [0x00];

/** The canonical Huffman codes of a table: symbol -> [code, length]. */
function codes(bits: number[], values: number[]): Map<number, [number, number]> {
  const out = new Map<number, [number, number]>();
  let code = 0;
  let k = 0;
  bits.forEach((n, i) => {
    for (let j = 0; j < n; j++) {
      out.set(values[k++] ?? 0, [code++, i + 1]);
    }
    code <<= 1;
  });
  return out;
}
const DC_CODES = codes(DC_BITS, DC_VALUES);

class BitWriter {
  readonly #bytes: number[] = [];
  #acc = 0;
  #n = 0;

  write(value: number, length: number): void {
    for (let i = length - 1; i >= 0; i--) {
      this.#acc = (this.#acc << 1) | ((value >> i) & 1);
      if (++this.#n === 8) {
        this.#push(this.#acc);
      }
    }
  }

  /** The bytes, the last one padded with 1 bits. */
  done(): Buffer {
    if (this.#n > 0) {
      this.#push((this.#acc << (8 - this.#n)) | (0xff >> this.#n));
    }
    return Buffer.from(this.#bytes);
  }

  #push(byte: number): void {
    this.#bytes.push(byte);
    if (byte === 0xff) {
      this.#bytes.push(0x00); // byte stuffing
    }
    this.#acc = 0;
    this.#n = 0;
  }
}

const toYCbCr = ([r, g, b]: readonly [number, number, number]) => [
  0.299 * r + 0.587 * g + 0.114 * b,
  128 - 0.168736 * r - 0.331264 * g + 0.5 * b,
  128 + 0.5 * r - 0.418688 * g - 0.081312 * b,
];

function scan(picture: JpegPicture): Buffer {
  const out = new BitWriter();
  const predictor = [0, 0, 0];
  for (let by = 0; by < picture.height / 8; by++) {
    for (let bx = 0; bx < picture.width / 8; bx++) {
      toYCbCr(picture.block(bx, by)).forEach((level, c) => {
        // A flat block's DC coefficient (all quantisers 1) is 8 × (level − 128).
        const dc = Math.round(8 * (Math.min(255, Math.max(0, level)) - 128));
        const diff = dc - (predictor[c] ?? 0);
        predictor[c] = dc;
        const size = diff === 0 ? 0 : Math.floor(Math.log2(Math.abs(diff))) + 1;
        const [code, length] = DC_CODES.get(size) ?? [0, 0];
        out.write(code, length);
        out.write(diff < 0 ? diff + (1 << size) - 1 : diff, size);
        out.write(0, 1); // end of block
      });
    }
  }
  return out.done();
}

export function writeJpeg(picture: JpegPicture): Buffer {
  const { width, height } = picture;
  const frame = Buffer.from([8, height >> 8, height & 0xff, width >> 8, width & 0xff, 3]);
  const components = [1, 2, 3].map((id) => Buffer.from([id, 0x11, 0]));
  return Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    ...(picture.exif ? [exifSegment(picture.exif)] : []),
    segment(0xdb, Buffer.from([0x00, ...Array<number>(64).fill(1)])),
    segment(0xc0, Buffer.concat([frame, ...components])),
    segment(0xc4, Buffer.from([0x00, ...DC_BITS, ...DC_VALUES, 0x10, ...AC_BITS, ...AC_VALUES])),
    segment(0xda, Buffer.from([3, 1, 0x00, 2, 0x00, 3, 0x00, 0, 63, 0])),
    scan(picture),
    Buffer.from([0xff, 0xd9]),
  ]);
}

/** An instant as EXIF writes it: UTC wall-clock time and the offset that says so. */
export function exifTime(iso: string): Pick<ExifFields, 'dateTimeOriginal' | 'offsetTimeOriginal'> {
  const [date = '', time = ''] = iso.split('T');
  return {
    dateTimeOriginal: `${date.replaceAll('-', ':')} ${time.slice(0, 8)}`,
    offsetTimeOriginal: '+00:00',
  };
}

/** What a generated photo is made from: fields of its record that no id remapping changes. */
export interface PhotoOf {
  name: string;
  latitude: number | null;
  longitude: number | null;
  taken_at: string | null;
}

/**
 * decisions.md, Files: the bytes of a seeded photo, made from its record: a roof under a sky,
 * coloured by its name and time, with its position and time in EXIF. The same record gives the
 * same bytes, so `size_bytes` is their length whenever they are made.
 */
export function generatedPhoto(rec: PhotoOf): Buffer {
  const tone = createHash('sha256')
    .update(`${rec.name}|${rec.taken_at ?? ''}`)
    .digest();
  const roof: [number, number, number] = [
    60 + (tone[0] ?? 0) / 4,
    55 + (tone[1] ?? 0) / 5,
    50 + (tone[2] ?? 0) / 6,
  ];
  const exif: ExifFields = rec.taken_at === null ? {} : exifTime(rec.taken_at);
  if (rec.latitude !== null && rec.longitude !== null) {
    exif.latitude = rec.latitude;
    exif.longitude = rec.longitude;
  }
  return writeJpeg({
    width: 160,
    height: 120,
    block: (bx, by) =>
      by < 6 - Math.floor(Math.abs(bx - 10) / 3)
        ? [110 + by * 12, 160 + by * 8, 230]
        : [roof[0] - by * 2, roof[1] - by * 2, roof[2] - by],
    exif,
  });
}
