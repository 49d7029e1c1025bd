const NEWLINE = 0x0a;

/** A line of a file read in chunks: its bytes without the newline, and where it starts. */
export interface Line {
  line: Buffer;
  at: number;
  /** A newline ends it; false for the text after the last newline, which always comes last. */
  ended: boolean;
}

/**
 * The lines of a stream of chunks (the journal, a collection of the data file: both a record or
 * a group a line). A line within one chunk is a view of it, not a copy.
 */
export async function* linesOf(chunks: AsyncIterable<Buffer>): AsyncGenerator<Line> {
  // The pieces after the last newline seen, joined once the line ends: joined chunk by chunk, a
  // line of 20 MB (a sweep that wrote thousands of records in one group) was copied 20 times.
  let carry: Buffer[] = [];
  let at = 0;
  for await (const chunk of chunks) {
    let from = 0;
    for (let nl = chunk.indexOf(NEWLINE); nl !== -1; nl = chunk.indexOf(NEWLINE, from)) {
      const piece = chunk.subarray(from, nl);
      const line = carry.length === 0 ? piece : Buffer.concat([...carry, piece]);
      carry = [];
      yield { line, at, ended: true };
      at += line.length + 1;
      from = nl + 1;
    }
    if (from < chunk.length) {
      carry.push(chunk.subarray(from));
    }
  }
  yield {
    line: carry.length === 1 ? (carry[0] as Buffer) : Buffer.concat(carry),
    at,
    ended: false,
  };
}
