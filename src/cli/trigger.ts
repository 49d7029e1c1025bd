import { type Command, InvalidArgumentError } from 'commander';
import { UsageError } from '../clients/scenario';
import { type Override, parseOverride, TriggerUsage, trigger } from '../clients/trigger';
import { CONTROL_TOKEN_FLAG, controlTokenFor } from './options';

interface TriggerFlags {
  server: string;
  workspace?: string;
  key?: string;
  override?: Override[];
  controlToken?: string;
}

export function triggerCommand(program: Command): void {
  program
    .command('trigger')
    .description('make the data change that raises EVENT, and show the deliveries that went out')
    .argument('<event>', 'an event of the catalogue (GET /v1/events), e.g. invoice.paid')
    .option('--server <url>', 'the svc to act on', 'http://127.0.0.1:4010')
    .option('--workspace <id>', 'act in this workspace (a write key is made for it)')
    .option('--key <key>', "act with this write key, in the key's workspace")
    .option(
      '--override <field=value>',
      'set a field of the record the event carries (repeatable; dotted for nested, a number for a list item; JSON values)',
      collectOverride,
    )
    .option(...CONTROL_TOKEN_FLAG)
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  svc trigger job.created',
        '  svc trigger invoice.paid --key svc_live_... --override title="Gutter repair"',
        '  svc trigger invoice.created --override line_items.0.unit_price=999',
        '  svc trigger contact.created --server http://127.0.0.1:4010 --override type=adjuster',
        '',
        'The recipes are scenario files, one per event, in fixtures/triggers/<event>.yaml: read',
        'them to see what is made, copy their steps into your own scenarios.',
        'Without --workspace or --key it acts in the first workspace of the server (with a key',
        'made for the run and revoked after it). An override the server ignored is warned about.',
        'Exit status: 0 the recipe ran, 1 a step failed, 2 bad usage.',
      ].join('\n'),
    )
    .action(async (event: string, flags: TriggerFlags, command: Command) => {
      if (flags.workspace !== undefined && flags.key !== undefined) {
        command.error('error: give --workspace or --key, not both', { exitCode: 2 });
      }
      controlTokenFor(flags.server, flags.controlToken);
      await run(event, flags, (message) => command.error(`error: ${message}`, { exitCode: 2 }));
    });
}

async function run(
  event: string,
  flags: TriggerFlags,
  usage: (message: string) => never,
): Promise<void> {
  try {
    const result = await trigger({
      event,
      server: flags.server,
      ...(flags.key === undefined ? {} : { key: flags.key }),
      ...(flags.workspace === undefined ? {} : { workspace: flags.workspace }),
      overrides: flags.override ?? [],
      out: (line) => process.stdout.write(`${line}\n`),
      warn: (line) => process.stderr.write(`${line}\n`),
    });
    process.exitCode = result.failure ? 1 : 0;
  } catch (err) {
    if (err instanceof TriggerUsage || err instanceof UsageError) {
      usage(err.message);
    }
    process.stderr.write(`svc: ${(err as Error).message}\n`);
    process.exitCode = 1;
  }
}

function collectOverride(value: string, previous: Override[] | undefined): Override[] {
  try {
    return [...(previous ?? []), parseOverride(value)];
  } catch (err) {
    throw new InvalidArgumentError((err as Error).message);
  }
}
