// A tiny PDF 1.4 writer for the homeowner's documents: text only, in the standard Helvetica faces
// (every PDF reader has them, so nothing is embedded), on US Letter pages, a new page whenever
// the text runs past the bottom margin. Only what an estimate or an invoice needs: headings,
// wrapped paragraphs, rows with an amount set flush right, and rules.

/** One piece of a document, laid out top to bottom. */
export type Block =
  | { kind: 'title'; text: string }
  | { kind: 'heading'; text: string }
  | { kind: 'text'; text: string; muted?: boolean }
  | { kind: 'row'; left: string; right: string; bold?: boolean; indent?: number }
  | { kind: 'rule' }
  | { kind: 'space' };

const PAGE_W = 612;
const PAGE_H = 792;
const MARGIN = 54;
const BOTTOM = 64;

// Helvetica's advance widths (per 1000 units of the font size) for the printable ASCII
// characters, from Adobe's AFM; digits are the same in the bold face, so amounts line up.
const WIDTHS = [
  278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556,
  556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, 1015, 667, 667, 722, 722, 667,
  611, 778, 722, 278, 500, 667, 556, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667,
  667, 611, 278, 278, 278, 469, 556, 333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500,
  222, 833, 556, 556, 556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
];

// WinAnsiEncoding codes of the characters above Latin-1's printable range that documents use.
const WIN_ANSI: Record<string, number> = {
  '€': 0x80,
  '‚': 0x82,
  '„': 0x84,
  '…': 0x85,
  '‘': 0x91,
  '’': 0x92,
  '“': 0x93,
  '”': 0x94,
  '•': 0x95,
  '–': 0x96,
  '—': 0x97,
  '™': 0x99,
};

/** A string as the bytes Helvetica's WinAnsiEncoding shows; what it cannot show becomes `?`. */
function encode(text: string): number[] {
  const out: number[] = [];
  for (const ch of text.normalize('NFC')) {
    const code = ch.codePointAt(0) ?? 63;
    if (code === 9) {
      out.push(32);
    } else if ((code >= 32 && code < 127) || (code >= 0xa0 && code <= 0xff)) {
      out.push(code);
    } else {
      out.push(WIN_ANSI[ch] ?? 63);
    }
  }
  return out;
}

/** A PDF string literal, ASCII only: parentheses and backslashes escaped, other bytes octal. */
function literal(bytes: readonly number[]): string {
  let s = '(';
  for (const b of bytes) {
    if (b === 40 || b === 41 || b === 92) {
      s += `\\${String.fromCharCode(b)}`;
    } else if (b < 32 || b > 126) {
      s += `\\${b.toString(8).padStart(3, '0')}`;
    } else {
      s += String.fromCharCode(b);
    }
  }
  return `${s})`;
}

function widthOf(bytes: readonly number[], size: number): number {
  let units = 0;
  for (const b of bytes) {
    units += b >= 32 && b < 127 ? (WIDTHS[b - 32] ?? 556) : 556;
  }
  return (units * size) / 1000;
}

/** Breaks text into lines no wider than `max`, at spaces; a word wider than a line is cut. */
function wrap(text: string, size: number, max: number): number[][] {
  const lines: number[][] = [];
  for (const para of text.split(/\r?\n/)) {
    let line: number[] = [];
    for (const word of para.split(' ')) {
      let w = encode(word);
      const joined = line.length === 0 ? w : [...line, 32, ...w];
      if (widthOf(joined, size) <= max) {
        line = joined;
        continue;
      }
      if (line.length > 0) {
        lines.push(line);
      }
      while (widthOf(w, size) > max && w.length > 1) {
        let n = w.length - 1;
        while (n > 1 && widthOf(w.slice(0, n), size) > max) {
          n -= 1;
        }
        lines.push(w.slice(0, n));
        w = w.slice(n);
      }
      line = w;
    }
    lines.push(line);
  }
  return lines;
}

const WIDTH = PAGE_W - 2 * MARGIN;

/** The pages laid out so far, and the baseline of the line last placed on the newest one. */
class Pen {
  readonly pages: string[][] = [[]];
  y = PAGE_H - MARGIN;

  /** Moves down `h` for the next line, on a new page when it would run past the bottom margin. */
  room(h: number): void {
    if (this.y - h < BOTTOM) {
      this.pages.push([]);
      this.y = PAGE_H - MARGIN;
    }
    this.y -= h;
  }

  put(bytes: readonly number[], x: number, font: 'F1' | 'F2', size: number): void {
    this.draw(
      `BT /${font} ${size} Tf ${x.toFixed(2)} ${this.y.toFixed(2)} Td ${literal(bytes)} Tj ET`,
    );
  }

  draw(op: string): void {
    this.pages[this.pages.length - 1]?.push(op);
  }
}

/** Lays blocks out on pages: each page's content stream. */
function layout(blocks: readonly Block[]): string[] {
  const pen = new Pen();
  for (const b of blocks) {
    place(pen, b);
  }
  return pen.pages.map((ops, i) => {
    const footer = encode(`Page ${i + 1} of ${pen.pages.length}`);
    const x = PAGE_W - MARGIN - widthOf(footer, 8);
    return [...ops, `BT /F1 8 Tf ${x.toFixed(2)} 36 Td ${literal(footer)} Tj ET`].join('\n');
  });
}

function place(pen: Pen, b: Block): void {
  switch (b.kind) {
    case 'title':
    case 'heading':
      placeHeading(pen, b.kind, b.text);
      break;
    case 'text':
      for (const line of wrap(b.text, 10, WIDTH)) {
        pen.room(13.5);
        pen.put(line, MARGIN, 'F1', 10);
      }
      break;
    case 'row':
      placeRow(pen, b);
      break;
    case 'rule':
      pen.room(8);
      pen.draw(
        `0.6 w ${MARGIN} ${(pen.y + 4).toFixed(2)} m ${PAGE_W - MARGIN} ${(pen.y + 4).toFixed(2)} l S`,
      );
      break;
    case 'space':
      pen.room(8);
      break;
  }
}

function placeHeading(pen: Pen, kind: 'title' | 'heading', text: string): void {
  const size = kind === 'title' ? 18 : 12.5;
  pen.y -= kind === 'heading' ? 8 : 0;
  for (const line of wrap(text, size, WIDTH)) {
    pen.room(size * 1.3);
    pen.put(line, MARGIN, 'F2', size);
  }
}

/** A row's text wrapped beside its amount, the amount on the first line, flush right. */
function placeRow(pen: Pen, b: Extract<Block, { kind: 'row' }>): void {
  const right = encode(b.right);
  const rightW = widthOf(right, 10);
  const indent = b.indent ?? 0;
  const lines = wrap(b.left, 10, WIDTH - indent - rightW - 18);
  lines.forEach((line, i) => {
    pen.room(13.5);
    pen.put(line, MARGIN + indent, b.bold ? 'F2' : 'F1', 10);
    if (i === 0 && right.length > 0) {
      pen.put(right, PAGE_W - MARGIN - rightW, b.bold ? 'F2' : 'F1', 10);
    }
  });
}

/**
 * A whole PDF file. Every object's byte offset is recorded as it is written, so the
 * cross-reference table points exactly at each `n 0 obj`. The file is ASCII after its header's
 * binary-marker comment, so a character is a byte.
 */
export function writePdf(title: string, blocks: readonly Block[]): Uint8Array {
  const streams = layout(blocks);
  const objects: string[] = [];
  const pageIds = streams.map((_, i) => 5 + i * 2);
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pageIds.length} >>`;
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';
  objects[4] =
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>';
  streams.forEach((content, i) => {
    const pageId = 5 + i * 2;
    objects[pageId] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${PAGE_W} ${PAGE_H}] ` +
      `/Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents ${pageId + 1} 0 R >>`;
    objects[pageId + 1] = `<< /Length ${content.length} >>\nstream\n${content}\nendstream`;
  });
  const infoId = objects.length;
  objects[infoId] = `<< /Title ${literal(encode(title))} /Producer (svc) >>`;

  let out = '%PDF-1.4\n%\u00e2\u00e3\u00cf\u00d3\n';
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id++) {
    offsets[id] = out.length;
    out += `${id} 0 obj\n${objects[id]}\nendobj\n`;
  }
  const xref = out.length;
  out += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
  for (let id = 1; id < objects.length; id++) {
    out += `${String(offsets[id]).padStart(10, '0')} 00000 n \n`;
  }
  out += `trailer\n<< /Size ${objects.length} /Root 1 0 R /Info ${infoId} 0 R >>\n`;
  out += `startxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}
