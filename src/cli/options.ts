import { InvalidArgumentError } from 'commander';

export function parsePort(text: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text) || n > 65535) {
    throw new InvalidArgumentError('a port is an integer from 0 to 65535');
  }
  return n;
}

// commander turns a parser's null into '', so "off" stays a string until serve maps it.
export function parseRateLimit(text: string): number | 'off' {
  if (text === 'off') {
    return 'off';
  }
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < 1) {
    throw new InvalidArgumentError('give a number of requests a minute (1 or more) or "off"');
  }
  return n;
}

export function parseSeed(text: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text) || n > 2 ** 31 - 1) {
    throw new InvalidArgumentError('a seed is an integer from 0 to 2147483647');
  }
  return n;
}

export function parseMillis(text: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text) || n > 24 * 60 * 60 * 1000) {
    throw new InvalidArgumentError('give a number of milliseconds from 0 to 86400000');
  }
  return n;
}

/** `--cors`: `*` (any origin), `off`, or origins separated by commas (`http://localhost:3000`). */
export function parseCors(text: string): '*' | 'off' | string[] {
  if (text === '*' || text === 'off') {
    return text;
  }
  const origins = text.split(',').map((o) => o.trim());
  for (const origin of origins) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    if (parsed === undefined || parsed.origin !== origin) {
      throw new InvalidArgumentError(
        `"${origin}" is no origin: give scheme, host and port only (http://localhost:3000), "*" or "off"`,
      );
    }
  }
  return origins;
}

export const DEFAULT_DATA = './.svc/data.json';
