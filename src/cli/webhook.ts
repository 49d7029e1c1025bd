import { randomInt } from 'node:crypto';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { listen } from '../clients/listen';
import { parsePort, parseSeed } from './options';

interface ListenFlags {
  port: number;
  host: string;
  secret?: string[];
  server?: string;
  key?: string;
  events?: string[];
  respond: number[];
  delay: number;
  forwardTo?: string;
  record?: string;
  tolerance: number;
  drop?: number;
  duplicate?: number;
  reorder?: number;
  seed?: number;
}

export function webhookCommand(program: Command): void {
  const webhook = program.command('webhook').description('work with webhook deliveries locally');
  webhook
    .command('listen')
    .description('a local receiver: verifies signatures, dedupes, prints, records, answers as told')
    .option('--port <n>', 'port to listen on (0 picks a free one)', parsePort, 4020)
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option(
      '--secret <whsec_...>',
      'verify with this secret (give it twice during a rotation)',
      collectSecret,
    )
    .option(
      '--server <url>',
      'subscribe to this svc (or service) and verify with the new secret',
      parseUrl,
    )
    .option('--key <key>', 'API key for --server')
    .option('--events <e1,e2|*>', 'events to subscribe to with --server (default *)', parseEvents)
    .addOption(
      new Option(
        '--respond <statuses>',
        'answers to accepted deliveries in order; the last repeats',
      )
        .argParser(parseStatuses)
        .default([200], '200'),
    )
    .option('--delay <ms>', 'wait this long before each answer', parseDelay, 0)
    .option(
      '--forward-to <url>',
      'pass accepted, non-duplicate deliveries on to this URL, bytes and headers unchanged',
      parseUrl,
    )
    .option('--record <file>', 'append one JSON line per delivery to this file')
    .option(
      '--tolerance <seconds>',
      'accept a signature timestamp this far from now',
      parseTolerance,
      300,
    )
    .option(
      '--drop <share>',
      'answer nothing (close the connection) to this share, 0 to 1',
      parseShare,
    )
    .option(
      '--duplicate <share>',
      'forward this share, 0 to 1, of deliveries twice (needs --forward-to)',
      parseShare,
    )
    .option(
      '--reorder <n>',
      'hold up to n forwards, then send them shuffled (needs --forward-to)',
      parseCount,
    )
    .option('--seed <n>', 'seed for --drop, --duplicate and --reorder, to repeat a run', parseSeed)
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  svc webhook listen --secret whsec_... --respond 500,500,200 --record ./deliveries.jsonl',
        '  svc webhook listen --server http://127.0.0.1:4010 --key svc_live_... \\',
        '    --events job.created,job.stage_changed --forward-to http://127.0.0.1:3000/hooks',
        '  svc webhook listen --secret whsec_... --forward-to http://127.0.0.1:3000/hooks \\',
        '    --duplicate 0.3 --reorder 4 --drop 0.1 --seed 7',
        '',
        'Without --secret or --server it accepts every delivery unverified (printed as such).',
        'Subscriptions it makes with --server are deleted on exit.',
        'svc serve accepts this http://127.0.0.1 target only when run with --allow-local-targets.',
        'A failed signature is explained on its line: clock skew, a re-encoded body, another secret.',
      ].join('\n'),
    )
    .action((flags: ListenFlags, command: Command) => {
      const usage = checkFlags(flags);
      if (usage) {
        command.error(`error: ${usage}`, { exitCode: 2 });
      }
      return run(flags);
    });
}

function checkFlags(flags: ListenFlags): string | undefined {
  if (flags.server === undefined) {
    if (flags.key !== undefined || flags.events !== undefined) {
      return '--key and --events go with --server';
    }
  } else if (flags.key === undefined) {
    return '--server needs --key';
  }
  if (
    flags.forwardTo === undefined &&
    (flags.duplicate !== undefined || flags.reorder !== undefined)
  ) {
    return '--duplicate and --reorder act on forwards: give --forward-to';
  }
  const chaos = [flags.drop, flags.duplicate, flags.reorder].some((v) => v !== undefined);
  if (flags.seed !== undefined && !chaos) {
    return '--seed goes with --drop, --duplicate or --reorder';
  }
  return undefined;
}

async function run(flags: ListenFlags): Promise<void> {
  const out = (line: string) => process.stdout.write(`${line}\n`);
  const warn = (line: string) => process.stderr.write(`svc: ${line}\n`);
  let listening: Awaited<ReturnType<typeof listen>> | undefined;
  let asked = false;
  let signals = 0;
  // Listening before the banner is printed, so that a signal sent as soon as the banner shows is
  // never met by Node's default (killed, no exit code): it stops the receiver once it is up.
  const stop = () => {
    if (++signals > 1) {
      process.exit(1);
    }
    if (listening === undefined) {
      asked = true;
    } else {
      stopListening(listening, out, warn);
    }
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  try {
    listening = await listen({
      host: flags.host,
      port: flags.port,
      secrets: flags.secret ?? [],
      subscribe:
        flags.server === undefined || flags.key === undefined
          ? undefined
          : { server: flags.server, key: flags.key, events: flags.events ?? ['*'] },
      respond: flags.respond,
      delayMs: flags.delay,
      forwardTo: flags.forwardTo,
      record: flags.record,
      toleranceSeconds: flags.tolerance,
      chaos: {
        drop: flags.drop ?? 0,
        duplicate: flags.duplicate ?? 0,
        reorder: flags.reorder ?? 0,
        // printed in the banner, so a run without --seed can still be repeated
        seed: flags.seed ?? randomInt(0, 2 ** 31),
      },
      out,
      warn,
    });
  } catch (err) {
    warn((err as Error).message);
    process.exitCode = 1;
    return;
  }
  if (asked) {
    stopListening(listening, out, warn);
  }
}

function stopListening(
  listening: Awaited<ReturnType<typeof listen>>,
  out: (line: string) => void,
  warn: (line: string) => void,
): void {
  listening.stop().then(
    (clean) => {
      const n = listening.received();
      out(`svc webhook listen stopped: ${n} ${n === 1 ? 'delivery' : 'deliveries'} received`);
      process.exit(clean ? 0 : 1);
    },
    (err: Error) => {
      warn(`stopping failed: ${err.message}`);
      process.exit(1);
    },
  );
}

function collectSecret(value: string, previous: string[] | undefined): string[] {
  if (!/^whsec_\S+$/.test(value)) {
    throw new InvalidArgumentError('a webhook secret starts with whsec_');
  }
  return [...(previous ?? []), value];
}

function parseEvents(text: string): string[] {
  const events = text.split(',').map((e) => e.trim());
  const named = events.every((e) => /^[a-z_]+\.[a-z_]+$/.test(e));
  if (!(named || (events.length === 1 && events[0] === '*'))) {
    throw new InvalidArgumentError('give * or event names like job.created, comma-separated');
  }
  return [...new Set(events)];
}

function parseStatuses(text: string): number[] {
  const parts = text.split(',').map((part) => part.trim());
  if (parts.some((part) => !/^\d{3}$/.test(part) || Number(part) < 200 || Number(part) > 599)) {
    throw new InvalidArgumentError('give HTTP statuses from 200 to 599, comma-separated');
  }
  return parts.map(Number);
}

function parseDelay(text: string): number {
  if (!/^\d{1,9}$/.test(text)) {
    throw new InvalidArgumentError('a delay is a number of milliseconds');
  }
  return Number(text);
}

function parseTolerance(text: string): number {
  if (!/^\d{1,9}$/.test(text) || Number(text) < 1) {
    throw new InvalidArgumentError('a tolerance is a number of seconds, 1 or more');
  }
  return Number(text);
}

/** --drop, --duplicate: `0`, `1`, `0.25`, `.5`; no percent, no exponent. */
function parseShare(text: string): number {
  if (!/^(0(\.\d+)?|1(\.0+)?|\.\d+)$/.test(text)) {
    throw new InvalidArgumentError('a share is a number from 0 to 1, such as 0.25');
  }
  return Number(text);
}

function parseCount(text: string): number {
  if (!/^\d{1,9}$/.test(text)) {
    throw new InvalidArgumentError('give a whole number, 0 or more');
  }
  return Number(text);
}

function parseUrl(text: string): string {
  if (!URL.canParse(text) || !/^https?:$/.test(new URL(text).protocol)) {
    throw new InvalidArgumentError('give an http: or https: URL');
  }
  return text;
}
