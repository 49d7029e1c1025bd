import { writeFile } from 'node:fs/promises';
import { type Command, InvalidArgumentError } from 'commander';
import {
  jsonReport,
  junitReport,
  outcomeLines,
  readRecorded,
  readSource,
  replay,
  SourceError,
  SourceUnreachable,
  sendRecorded,
  summary,
  tally,
} from '../clients/replay';
import { parseInstant } from '../platform/paging';
import { CONTROL_TOKEN_FLAG, controlTokenFor } from './options';
import { prepareReportFile, reportFileProblem } from './report-file';

interface ReplayFlags {
  from?: string;
  to?: string;
  key?: string;
  keyMap?: Map<string, string>;
  workspace?: string;
  path?: string;
  since?: number;
  until?: number;
  compare?: boolean;
  json?: boolean;
  junit?: string;
  controlToken?: string;
}

interface DeliveriesFlags {
  from?: string;
  to?: string;
  secret?: string;
}

const out = (line: string) => process.stdout.write(`${line}\n`);
const warn = (line: string) => process.stderr.write(`svc: ${line}\n`);

export function replayCommand(program: Command): void {
  const replayCmd = program
    .command('replay')
    .description('re-send recorded requests to a server, and compare its answers with the recorded')
    .option('--from <source>', "a svc's address (its request log) or a JSON-lines export of it")
    .option('--to <base_url>', 'the server to send to, with or without /v1')
    .option('--key <key>', 'send every request with this key (unless --key-map names its key)')
    .option(
      '--key-map <old_key_id=new_key>',
      'send the requests of a recorded key_id with this key (repeatable)',
      collectKeyMap,
    )
    .option('--workspace <id>', 'only requests of this recorded workspace_id')
    .option('--path <prefix>', 'only requests whose path starts so (with or without /v1)')
    .option('--since <time>', 'only requests made at or after (ISO date or date-time)', parseTime)
    .option('--until <time>', 'only requests made before (ISO date or date-time)', parseTime)
    .option('--compare', 'say per request `same` or what differs from the recorded answer')
    .option('--json', 'print a machine report instead of lines')
    .option('--junit <file>', 'write a JUnit XML report, a testcase a request')
    .option(...CONTROL_TOKEN_FLAG)
    .addHelpText('after', replayHelp)
    .action((flags: ReplayFlags, command: Command) => {
      const usage = checkReplay(flags);
      if (usage) {
        command.error(`error: ${usage}`, { exitCode: 2 });
      }
      controlTokenFor(flags.from, flags.controlToken);
      return runReplay(flags);
    });
  replayCmd.hook('preSubcommand', handOptionsOn);
  replayCmd
    .command('deliveries')
    .description('re-send deliveries `svc webhook listen --record` kept, signed afresh')
    .option('--from <file>', 'the --record file of svc webhook listen')
    .option('--to <url>', 'the receiver to send them to')
    .option('--secret <secret>', 'the secret to sign them with (whsec_...)')
    .addHelpText('after', deliveriesHelp)
    .action((flags: DeliveriesFlags, command: Command) => {
      const usage = checkDeliveries(flags);
      if (usage) {
        command.error(`error: ${usage}`, { exitCode: 2 });
      }
      return runDeliveries(flags);
    });
}

/**
 * Commander hands every word after `svc replay` to replay's own options before it dispatches, so
 * the --from and --to of `svc replay deliveries --from F --to U` land on replay: they are moved
 * to the subcommand, and another option of replay's given there is refused as unknown to it.
 * (`program.enablePositionalOptions()` in main.ts would make this unneeded.)
 */
function handOptionsOn(parent: Command, sub: Command): void {
  for (const option of parent.options) {
    const name = option.attributeName();
    if (parent.getOptionValueSource(name) !== 'cli') {
      continue;
    }
    if (name !== 'from' && name !== 'to') {
      sub.error(`error: unknown option '${option.long}' (see svc replay ${sub.name()} --help)`, {
        exitCode: 2,
        code: 'commander.unknownOption',
      });
    }
    sub.setOptionValueWithSource(name, parent.getOptionValue(name), 'cli');
    parent.setOptionValue(name, undefined);
  }
}

const replayHelp = [
  '',
  'Examples:',
  '  svc replay --from http://127.0.0.1:4010 --to http://127.0.0.1:4011 --key svc_live_... --compare',
  '  curl -s "http://127.0.0.1:4010/__admin/requests?format=jsonl&workspace_id=$WS" > log.jsonl',
  '  svc replay --from log.jsonl --to http://127.0.0.1:4011/v1 \\',
  '    --key-map key_old_write=svc_live_... --key-map key_old_read=svc_live_... --compare --junit replay.xml',
  '',
  'Requests go oldest first; an id a recorded create made (or a next_cursor a recorded list page',
  'gave) is replaced by the one the new answer gave, in every later path, query and body.',
  'A truncated or multipart request body is skipped. Lines show the recorded path and query.',
  'Exit 0: sent (with --compare: all same); 1: a difference, or no answer; 2: bad usage.',
].join('\n');

const deliveriesHelp = [
  '',
  'Example:',
  '  svc replay deliveries --from deliveries.jsonl --to http://127.0.0.1:4020 --secret whsec_...',
  '',
  'Exit 0: every delivery answered 2xx; 1: one did not; 2: bad usage.',
].join('\n');

function checkReplay(flags: ReplayFlags): string | undefined {
  if (flags.from === undefined || flags.to === undefined) {
    return 'give --from SOURCE and --to BASE_URL';
  }
  if (!isHttpUrl(flags.to)) {
    return '--to is an http: or https: URL';
  }
  if (flags.key === undefined && flags.keyMap === undefined) {
    return 'give --key KEY or --key-map OLD_KEY_ID=NEW_KEY';
  }
  if (flags.since !== undefined && flags.until !== undefined && flags.since >= flags.until) {
    return '--since must come before --until';
  }
  return undefined;
}

async function runReplay(flags: ReplayFlags): Promise<void> {
  const { from = '', to = '' } = flags;
  const compare = flags.compare === true;
  // before anything runs, as svc scenario run: missing folders made, the file opened
  let undo = async () => {};
  if (flags.junit !== undefined) {
    const prepared = await prepareReportFile(flags.junit);
    if (!prepared.ok) {
      process.stderr.write(
        `error: ${reportFileProblem('--junit', flags.junit, prepared.problem)}\n`,
      );
      process.exitCode = 2;
      return;
    }
    undo = prepared.undo;
  }
  let entries: Awaited<ReturnType<typeof readSource>>;
  try {
    entries = await readSource(from, {
      workspace: flags.workspace,
      path: flags.path,
      sinceMs: flags.since,
      untilMs: flags.until,
    });
  } catch (err) {
    if (err instanceof SourceError || err instanceof SourceUnreachable) {
      await undo();
      warn(err.message);
      process.exitCode = err instanceof SourceError ? 2 : 1;
      return;
    }
    throw err;
  }
  if (entries.length === 0 && flags.json !== true) {
    out('nothing to replay: no logged request matches');
  }
  const outcomes = await replay(
    entries,
    { to, key: flags.key, keyMap: flags.keyMap ?? new Map(), compare },
    (outcome) => {
      if (flags.json !== true) {
        for (const line of outcomeLines(outcome, compare)) {
          out(line);
        }
      }
    },
  );
  if (flags.json === true) {
    out(jsonReport(outcomes));
  } else if (entries.length > 0) {
    out(summary(tally(outcomes), compare));
  }
  if (flags.junit !== undefined) {
    await writeFile(flags.junit, junitReport(outcomes));
  }
  const failed = outcomes.some((o) => (compare ? o.result === 'different' : o.failed));
  process.exitCode = failed ? 1 : 0;
}

function checkDeliveries(flags: DeliveriesFlags): string | undefined {
  if (flags.from === undefined || flags.to === undefined || flags.secret === undefined) {
    return 'give --from FILE, --to URL and --secret whsec_...';
  }
  if (!isHttpUrl(flags.to)) {
    return '--to is an http: or https: URL';
  }
  if (!/^whsec_\S+$/.test(flags.secret)) {
    return 'a webhook secret starts with whsec_';
  }
  return undefined;
}

async function runDeliveries(flags: DeliveriesFlags): Promise<void> {
  const { from = '', to = '', secret = '' } = flags;
  let recorded: Awaited<ReturnType<typeof readRecorded>>;
  try {
    recorded = await readRecorded(from);
  } catch (err) {
    if (err instanceof SourceError) {
      warn(err.message);
      process.exitCode = 2;
      return;
    }
    throw err;
  }
  let failed = 0;
  for (const delivery of recorded) {
    const sent = await sendRecorded(delivery, to, secret);
    const ok = sent.status !== null && sent.status >= 200 && sent.status < 300;
    failed += ok ? 0 : 1;
    out(`${sent.event}  ${sent.delivery}  ${sent.status ?? `no answer: ${sent.error}`}`);
  }
  out(`${recorded.length - failed} delivered, ${failed} failed`);
  process.exitCode = failed > 0 ? 1 : 0;
}

function collectKeyMap(
  text: string,
  previous: Map<string, string> | undefined,
): Map<string, string> {
  const at = text.indexOf('=');
  const old = text.slice(0, at).trim();
  const key = text.slice(at + 1).trim();
  if (at < 1 || old === '' || key === '') {
    throw new InvalidArgumentError(
      'give OLD_KEY_ID=NEW_KEY, the recorded key_id and the key to use',
    );
  }
  const map = new Map(previous);
  if (map.has(old) && map.get(old) !== key) {
    throw new InvalidArgumentError(`${old} is mapped twice, to different keys`);
  }
  return map.set(old, key);
}

function parseTime(text: string): number {
  const ms = parseInstant(text);
  if (ms === undefined) {
    throw new InvalidArgumentError('give an ISO date or date-time (2026-05-01T12:00:00Z)');
  }
  return ms;
}

function isHttpUrl(text: string): boolean {
  return URL.canParse(text) && /^https?:$/.test(new URL(text).protocol);
}
