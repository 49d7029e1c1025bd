// One HTTP exchange written and read as bytes: what a client library would tidy away (a header
// sent twice, joined by fetch; a request Node's parser refuses) stays visible.
import { connect } from 'node:net';

/** Writes `request` to 127.0.0.1:`port` as it is, and answers everything read until the close. */
export function rawExchange(port: number | string, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(request));
    let got = '';
    socket.on('data', (chunk: Buffer) => {
      got += chunk.toString('latin1');
    });
    socket.on('end', () => resolve(got));
    socket.on('error', reject);
  });
}

/** An answer's head, a line each: the status line, then `Name: value` lines. */
export const headOf = (raw: string): string[] =>
  raw.slice(0, raw.indexOf('\r\n\r\n')).split('\r\n');

/** An answer's body, parsed as JSON. */
export const jsonBodyOf = (raw: string): unknown =>
  JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4));
