import type { Command } from 'commander';
import { withControlAuth } from '../clients/control-token';
import {
  baseOf,
  computeCoverage,
  coverageTable,
  readTraffic,
  SourceProblem,
} from '../clients/coverage';
import { CONTROL_TOKEN_PREFIX } from '../platform/auth';
import { CONTROL_TOKEN_FLAG, controlTokenFor } from './options';

interface CoverageFlags {
  from?: string;
  workspace?: string;
  json?: boolean;
  controlToken?: string;
}

const help = [
  '',
  'Examples:',
  '  svc coverage --from http://127.0.0.1:4010',
  '  svc coverage --from http://127.0.0.1:4010 --workspace 3f2c9a1e-... --json > coverage.json',
  '',
  'Read from the svc at --from: its /v1/openapi.json (the operations), its request log (every',
  'call made with a key, 14 days) and its delivery log. Printed: the operations called with their',
  'statuses, those never called, the error codes met, the events delivered and how the receiver',
  'answered each attempt, and what was never exercised (a 429 never handled, a webhook never',
  'retried, ...). --json prints {operations, never_called, error_codes, events, ...} for CI.',
  'Exit 0: a report was printed; 2: bad usage, or --from is no svc that answers.',
].join('\n');

export function coverageCommand(program: Command): void {
  program
    .command('coverage')
    .description("what an integrator's traffic exercised of the API, and what it never did")
    .option('--from <url>', 'the svc whose logs to read (its address, /v1 or /__admin)')
    .option('--workspace <id>', "only this workspace's requests and deliveries")
    .option('--json', 'print the report as JSON')
    .option(...CONTROL_TOKEN_FLAG)
    .addHelpText('after', help)
    .action((flags: CoverageFlags, command: Command) => {
      const usage = checkFlags(flags);
      if (usage) {
        command.error(`error: ${usage}`, { exitCode: 2 });
      }
      controlTokenFor(flags.from, flags.controlToken);
      return runCoverage(flags);
    });
}

function checkFlags(flags: CoverageFlags): string | undefined {
  if (flags.from === undefined) {
    return 'give --from URL, the address of a running svc';
  }
  if (!URL.canParse(flags.from) || !/^https?:$/.test(new URL(flags.from).protocol)) {
    return '--from is an http: or https: URL';
  }
  if (flags.workspace !== undefined && flags.workspace.trim() === '') {
    return '--workspace takes a workspace id';
  }
  return undefined;
}

/** The one workspace a control token lists (GET /__admin/workspaces answers its own alone). */
async function workspaceOfToken(base: string): Promise<string | undefined> {
  const url = `${base}/__admin/workspaces?limit=1`;
  try {
    const res = await fetch(url, { headers: withControlAuth(url) });
    const body = (await res.json()) as { data?: { id?: unknown }[] };
    const id = body.data?.[0]?.id;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined; // readTraffic says what is wrong with the server
  }
}

async function runCoverage(flags: CoverageFlags): Promise<void> {
  const from = flags.from ?? '';
  let traffic: Awaited<ReturnType<typeof readTraffic>>;
  try {
    // A workspace's control token reads that workspace alone: the report says which.
    const own = flags.controlToken?.startsWith(CONTROL_TOKEN_PREFIX)
      ? await workspaceOfToken(baseOf(from))
      : undefined;
    traffic = await readTraffic(from, flags.workspace ?? own);
  } catch (err) {
    if (err instanceof SourceProblem) {
      process.stderr.write(`svc: ${err.message}\n`);
      process.exitCode = 2;
      return;
    }
    throw err;
  }
  const report = computeCoverage(traffic);
  const text =
    flags.json === true
      ? JSON.stringify(report, null, 2)
      : coverageTable(report, {
          base: baseOf(from),
          deliveries: traffic.deliveries.length,
        }).join('\n');
  process.stdout.write(`${text}\n`);
  process.exitCode = 0;
}
