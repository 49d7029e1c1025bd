import { describe, expect, test } from 'vitest';
import { type Line, linesOf } from '../../src/store/lines';

// The journal and the data file's collections are read in chunks and split into lines
// (src/store/lines.ts): a line must come out whole wherever the chunks cut it.

async function* chunks(parts: string[]): AsyncGenerator<Buffer> {
  for (const part of parts) {
    yield Buffer.from(part);
  }
}

async function lines(parts: string[]): Promise<[string, number, boolean][]> {
  const out: [string, number, boolean][] = [];
  for await (const { line, at, ended } of linesOf(chunks(parts)) as AsyncGenerator<Line>) {
    out.push([line.toString(), at, ended]);
  }
  return out;
}

describe('lines of a file read in chunks', () => {
  test('a line cut by chunks, even over three of them, comes out whole with its byte offset', async () => {
    expect(await lines(['ab', 'c\nd', 'e', 'f\n\ng'])).toEqual([
      ['abc', 0, true],
      ['def', 4, true],
      ['', 8, true],
      ['g', 9, false],
    ]);
  });

  test('the text after the last newline comes last, not ended, and empty when the file ends in one', async () => {
    expect(await lines(['one\n', 'two\n'])).toEqual([
      ['one', 0, true],
      ['two', 4, true],
      ['', 8, false],
    ]);
    expect(await lines([])).toEqual([['', 0, false]]);
  });

  test('offsets count bytes, not characters', async () => {
    expect(await lines(['é😀\nx'])).toEqual([
      ['é😀', 0, true],
      ['x', 7, false],
    ]);
  });
});
