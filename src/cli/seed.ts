import type { Command } from 'commander';
import { PROFILES, type Profile, seedDataFile } from '../seed';
import { DEFAULT_DATA, parseSeed } from './options';

interface SeedFlags {
  data: string;
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
    .option('--json', 'print {data, workspaces: [{id, name, keys}]} as JSON', false)
    .addHelpText('after', '\nExample:\n  svc seed --data ./ci.json --seed 7 --profile small --json')
    .action((flags: SeedFlags, command: Command) => {
      if (!PROFILES.includes(flags.profile)) {
        command.error(`error: --profile must be one of ${PROFILES.join(', ')}`, { exitCode: 2 });
      }
      return seed(flags);
    });
}

async function seed(flags: SeedFlags): Promise<void> {
  let workspaces: Awaited<ReturnType<typeof seedDataFile>>;
  try {
    workspaces = await seedDataFile(flags.data, { seed: flags.seed, profile: flags.profile });
  } catch (err) {
    process.stderr.write(`svc: ${(err as Error).message}\n`);
    process.exitCode = 1;
    return;
  }
  if (flags.json) {
    process.stdout.write(`${JSON.stringify({ data: flags.data, workspaces })}\n`);
    return;
  }
  process.stdout.write(`seeded ${flags.data} (profile ${flags.profile}, seed ${flags.seed})\n`);
  for (const ws of workspaces) {
    process.stdout.write(
      `  workspace ${ws.name} (${ws.id})\n    write key  ${ws.keys.write.key}\n    read key   ${ws.keys.read.key}\n`,
    );
  }
}
