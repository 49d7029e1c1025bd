import type { Command } from 'commander';
import { copyStore, type StoreAt } from '../store/copy';
import { checkStore, isPostgresUrl, shownUrl } from './store-flags';

// `svc store copy --from FILE|postgres://… --to FILE|postgres://…` (DESIGN.md): a whole store
// moved between a data file and PostgreSQL (decisions.md, The store on PostgreSQL).

interface CopyFlags {
  from?: string;
  to?: string;
  storeSchema: string;
}

export function storeCommand(program: Command): void {
  const store = program
    .command('store')
    .description('move a whole store between a data file and PostgreSQL');
  store
    .command('copy')
    .description('copy every record of one store into another, replacing what it held')
    .option('--from <file|url>', 'the store to read: a data file, or postgres://…')
    .option('--to <file|url>', 'the store to write (replaced): a data file, or postgres://…')
    .option('--store-schema <name>', 'the schema on the PostgreSQL side', 'svc')
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  svc store copy --from ./.svc/data.json --to postgres://svc@127.0.0.1:5432/svc',
        '  svc store copy --from postgres://svc@127.0.0.1:5432/svc --to ./copy.json',
        '',
        "Records move; an upload's bytes stay beside the data file (<file>.files/), where a node",
        'serving the store keeps them (its --data). Refused while a svc serves the destination.',
        'Exit status: 0 copied, 1 a store could not be read or written, 2 bad usage.',
      ].join('\n'),
    )
    .action(async (flags: CopyFlags, command: Command) => {
      const usage = (message: string): never => command.error(`error: ${message}`, { exitCode: 2 });
      if (flags.from === undefined || flags.to === undefined) {
        usage('give --from and --to');
      }
      const side = (at: string): StoreAt => {
        if (!isPostgresUrl(at)) {
          if (/^[a-z][a-z0-9+.-]*:\/\//i.test(at)) {
            usage(
              `${shownUrl(at)} is a URL, and not PostgreSQL's (postgres://…): give one, or a data file`,
            );
          }
          return { file: at };
        }
        const problem = checkStore(at, flags.storeSchema);
        return problem === undefined ? { url: at, schema: flags.storeSchema } : usage(problem);
      };
      const [from, to] = [side(flags.from ?? ''), side(flags.to ?? '')];
      if (flags.from === flags.to) {
        usage('--from and --to name the same store');
      }
      const name = (at: StoreAt) =>
        'file' in at ? at.file : `${shownUrl(at.url)} (schema ${at.schema})`;
      try {
        const copied = await copyStore(from, to);
        process.stdout.write(
          `svc store copy: ${copied.workspaces} workspaces, ${copied.records} records from ${name(from)} to ${name(to)}\n`,
        );
      } catch (err) {
        process.stderr.write(`svc: ${(err as Error).message}\n`);
        process.exitCode = 1;
      }
    });
}
