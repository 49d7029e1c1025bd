import type { Command } from 'commander';
import { PROFILES, type Profile, seedDataFile, seedPostgres } from '../seed';
import { DEFAULT_DATA, parseSeed } from './options';
import { checkStore, STORE_FLAGS, shownUrl, storeOf } from './store-flags';

interface SeedFlags {
  data: string;
  store?: string;
  storeSchema: string;
  seed: number;
  profile: Profile;
  json: boolean;
}

export function seedCommand(program: Command): void {
  program
    .command('seed')
    .description(
      '(re)generate a fake workspace into a data file; the same --seed gives the same bytes',
    )
    .option('--data <file>', 'data file to write (replaced)', DEFAULT_DATA)
    .option('--seed <n>', 'seed for the fake data', parseSeed, 1)
    .option('--profile <profile>', `one of ${PROFILES.join(', ')}`, 'demo')
    .option(
      '--json',
      'print {data, workspaces: [{id, name, keys}]} as JSON ({store, schema, workspaces} with --store)',
      false,
    )
    .option(STORE_FLAGS.store, `${STORE_FLAGS.storeHelp}: what its schema holds is replaced`)
    .option(STORE_FLAGS.schema, STORE_FLAGS.schemaHelp, 'svc')
    .addHelpText('after', '\nExample:\n  svc seed --data ./ci.json --seed 7 --profile small --json')
    .action((flags: SeedFlags, command: Command) => {
      if (!PROFILES.includes(flags.profile)) {
        command.error(`error: --profile must be one of ${PROFILES.join(', ')}`, { exitCode: 2 });
      }
      const store = storeOf(flags.store);
      const problem = store === undefined ? undefined : checkStore(store, flags.storeSchema);
      if (problem !== undefined) {
        command.error(`error: ${problem}`, { exitCode: 2 });
      }
      return seed({ ...flags, store });
    });
}

async function seed(flags: SeedFlags): Promise<void> {
  let workspaces: Awaited<ReturnType<typeof seedDataFile>>;
  const opts = { seed: flags.seed, profile: flags.profile };
  try {
    workspaces =
      flags.store === undefined
        ? await seedDataFile(flags.data, opts)
        : await seedPostgres(flags.store, flags.storeSchema, opts);
  } catch (err) {
    process.stderr.write(`svc: ${(err as Error).message}\n`);
    process.exitCode = 1;
    return;
  }
  const where =
    flags.store === undefined
      ? { data: flags.data }
      : { store: shownUrl(flags.store), schema: flags.storeSchema };
  if (flags.json) {
    process.stdout.write(`${JSON.stringify({ ...where, workspaces })}\n`);
    return;
  }
  const named = 'data' in where ? where.data : `${where.store}, schema ${where.schema}`;
  process.stdout.write(`seeded ${named} (profile ${flags.profile}, seed ${flags.seed})\n`);
  for (const ws of workspaces) {
    process.stdout.write(
      `  workspace ${ws.name} (${ws.id})\n    write key  ${ws.keys.write.key}\n    read key   ${ws.keys.read.key}\n`,
    );
  }
}
