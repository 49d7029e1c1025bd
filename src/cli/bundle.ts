import { rename, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Command } from 'commander';
import type { Bundle } from '../bundle/format';
import { controlRefusal, withControlAuth } from '../clients/control-token';
import { CONTROL_TOKEN_FLAG, controlTokenFor } from './options';

interface BundleFlags {
  from?: string;
  workspace?: string;
  out?: string;
  controlToken?: string;
}

const TIMEOUT_MS = 60_000;

export function bundleCommand(program: Command): void {
  program
    .command('bundle')
    .description(
      "write one support file: a workspace's state, request and delivery logs, clock and faults, secrets replaced",
    )
    .option('--from <url>', 'the running svc to read (its address, /v1 or /__admin)')
    .option('--workspace <id>', 'the workspace of the case')
    .option('--out <file>', 'where to write the bundle (JSON)')
    .option(...CONTROL_TOKEN_FLAG)
    .addHelpText(
      'after',
      [
        '',
        'Example:',
        '  svc bundle --from http://127.0.0.1:4010 --workspace 1c52...031 --out case-1234.json',
        '  svc serve --data case-1234.json --port 0       # the case back: state, clock, faults, log',
        '  svc replay --from case-1234.json --to http://127.0.0.1:4011 --compare',
        '',
        'The same file is GET /__admin/workspaces/{id}/bundle. Keys leave only as hashes; webhook',
        'and OAuth secrets, and any key or secret in a logged body, are replaced.',
        'Exit status: 0 written, 1 the svc could not be read or the file written, 2 bad usage',
        '(a flag missing, an address that is no URL, a workspace the svc does not have).',
      ].join('\n'),
    )
    .action(async (flags: BundleFlags, command: Command) => {
      const usage = (message: string): never => command.error(`error: ${message}`, { exitCode: 2 });
      for (const flag of ['from', 'workspace', 'out'] as const) {
        if (flags[flag] === undefined) {
          usage(`--${flag} is required`);
        }
      }
      controlTokenFor(flags.from, flags.controlToken);
      await write(flags as Required<BundleFlags>, usage);
    });
}

async function write(flags: Required<BundleFlags>, usage: (message: string) => never) {
  if (!/^https?:\/\/[^/]/i.test(flags.from)) {
    usage(`--from must be an http(s) address, got ${flags.from}`);
  }
  const base = flags.from.replace(/\/+$/, '').replace(/\/(v1|__admin)$/, '');
  const url = `${base}/__admin/workspaces/${encodeURIComponent(flags.workspace)}/bundle`;
  let res: Response;
  try {
    res = await fetch(url, {
      headers: withControlAuth(url),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (err) {
    return fail(`cannot reach ${base}: ${causeOf(err)}`);
  }
  const text = await res.text();
  if (res.status === 401 || res.status === 403) {
    usage(`${url} answered ${res.status}: ${controlRefusal(res.status, base)}`);
  }
  if (res.status === 404 && text.includes('"not_found"')) {
    usage(`${base} has no workspace ${flags.workspace}`);
  }
  let bundle: Bundle;
  try {
    bundle = JSON.parse(text) as Bundle;
  } catch {
    bundle = {} as Bundle;
  }
  if (res.status !== 200 || bundle.format !== 'svc-bundle') {
    return fail(`${url} answered ${res.status}, not a bundle: ${controlRefusal(res.status, base)}`);
  }
  // Written whole or not at all: a half-written case would mislead whoever opens it.
  const temp = join(dirname(flags.out), `.${basename(flags.out)}.tmp`);
  try {
    await writeFile(temp, `${JSON.stringify(bundle, null, 2)}\n`);
    await rename(temp, flags.out);
  } catch (err) {
    return fail(`cannot write ${flags.out}: ${(err as Error).message}`);
  }
  const { counts, workspace_name, workspace_id } = bundle.manifest;
  process.stdout.write(
    `svc bundle: wrote ${flags.out}: workspace ${workspace_name} (${workspace_id}) at ${bundle.clock.now}, ` +
      `${counts.records} records, ${counts.requests} requests, ${counts.deliveries} deliveries, ` +
      `${counts.faults} faults; keys as hashes, secrets replaced\n`,
  );
}

function fail(message: string): void {
  process.stderr.write(`svc: ${message}\n`);
  process.exitCode = 1;
}

const causeOf = (err: unknown): string => {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code === 'ECONNREFUSED') {
    return 'connection refused';
  }
  return cause?.message ?? (err as Error).message;
};
