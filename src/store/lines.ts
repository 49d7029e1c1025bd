const NEWLINE = 0x0a;

/** A line of a file read in chunks: its bytes without the newline, and where it starts. */
export interface Line {
  line: Buffer;
  at: number;
  /** A newline ends it; false for the text after the last newline, which always comes last. */
  ended: boolean;
}

/**
 * A stream of chunks cut where lines end: each piece but the last is whole lines, newlines
 * included, a view of its chunk unless a line ran across chunks (joined once, alone); the last
 * piece is the text after the last newline, perhaps empty. Why pieces and not lines: a fold
 * copies a collection's untouched lines as runs of bytes (fold.ts).
 */
export async function* wholeLines(chunks: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  // The pieces after the last newline seen, joined once the line ends: joined chunk by chunk, a
  // line of 20 MB (a sweep that wrote thousands of records in one group) was copied 20 times.
  let carry: Buffer[] = [];
  for await (const chunk of chunks) {
    let from = 0;
    if (carry.length > 0) {
      const nl = chunk.indexOf(NEWLINE);
      if (nl === -1) {
        carry.push(chunk);
        continue;
      }
      yield Buffer.concat([...carry, chunk.subarray(0, nl + 1)]);
      carry = [];
      from = nl + 1;
    }
    const last = chunk.lastIndexOf(NEWLINE);
    if (last >= from) {
      yield chunk.subarray(from, last + 1);
      from = last + 1;
    }
    if (from < chunk.length) {
      carry.push(chunk.subarray(from));
    }
  }
  yield carry.length === 1 ? (carry[0] as Buffer) : Buffer.concat(carry);
}

/**
 * The lines of a stream of chunks (the journal, a record or a group a line). A line within one
 * chunk is a view of it, not a copy.
 */
export async function* linesOf(chunks: AsyncIterable<Buffer>): AsyncGenerator<Line> {
  let at = 0;
  for await (const piece of wholeLines(chunks)) {
    let from = 0;
    for (let nl = piece.indexOf(NEWLINE); nl !== -1; nl = piece.indexOf(NEWLINE, from)) {
      yield { line: piece.subarray(from, nl), at: at + from, ended: true };
      from = nl + 1;
    }
    if (from < piece.length || piece.length === 0) {
      yield { line: piece.subarray(from), at: at + from, ended: false }; // the last piece
    }
    at += piece.length;
  }
}
