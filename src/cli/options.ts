import { InvalidArgumentError } from 'commander';
import { useControlToken } from '../clients/control-token';

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

const UNITS: Record<string, number> = { '': 1, b: 1, k: 2 ** 10, m: 2 ** 20, g: 2 ** 30 };
/** The smallest byte budget of the request log: a few dozen lines of 16 KB answers. */
export const MIN_LOG_BYTES = 2 ** 20;

/**
 * `--request-log-max-bytes`: bytes (`67108864`), or with a unit (`64MB`, `512KB`, `1GB`; K, KB and
 * KiB alike count in 1024s, as a MB does everywhere in svc), at least 1 MB; or "off" (the lines
 * cap alone). Not 0: the spec keeps calls 14 days, so "no log" is no setting.
 */
export function parseLogBytes(text: string): number | 'off' {
  if (text === 'off') {
    return 'off';
  }
  const m = /^(\d+)(?:([kmg])(?:i?b)?|(b))?$/i.exec(text.trim());
  const unit = (m?.[2] ?? m?.[3] ?? '').toLowerCase();
  const n = m ? Number(m[1]) * (UNITS[unit] ?? Number.NaN) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < MIN_LOG_BYTES) {
    throw new InvalidArgumentError(
      'give a size of 1MB or more (bytes, or with KB, MB or GB: 64MB) or "off"',
    );
  }
  return n;
}

export const DEFAULT_DATA = './.svc/data.json';

/** `--control-token` on the commands that read or drive a svc's control API. */
export const CONTROL_TOKEN_FLAG = [
  '--control-token <token>',
  "the control API's credential on a shared svc (svc serve --admin-token): a workspace's control token (svc_ctl_...) or the admin token",
] as const;

/** Sends `token`, when given, on every control API call to the svc at `address`. */
export function controlTokenFor(address: string | undefined, token: string | undefined): void {
  if (address !== undefined && token !== undefined && URL.canParse(address)) {
    useControlToken(new URL(address).origin, token);
  }
}
