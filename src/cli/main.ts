import { Command, CommanderError } from 'commander';
import { seedCommand } from './seed';
import { type Hooks, serveCommand } from './serve';
import { warmUp } from './warm';

/** Usage errors exit 2 with one line; help and --version exit 0. */
export async function main(argv: string[], hooks: Hooks = {}): Promise<void> {
  const program = new Command('svc')
    .description(
      'A local reference implementation and mock server of the Workspace Operations REST API v1',
    )
    .version(SVC_VERSION, '-v, --version')
    .exitOverride()
    .configureOutput({ outputError: (text, write) => write(`${text.trim().split('\n')[0]}\n`) })
    .showHelpAfterError(false);
  serveCommand(program, hooks);
  seedCommand(program);
  (await import('./webhook')).webhookCommand(program);
  program
    .command('warm', { hidden: true })
    .description('run the hot paths once in memory, so the code cache covers them (npm run build)')
    .action(async () => {
      await warmUp();
      hooks.onWarm?.();
    });
  for (const command of program.commands) {
    command.exitOverride();
  }
  try {
    await program.parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      process.exitCode = err.exitCode === 0 ? 0 : 2;
      return;
    }
    throw err;
  }
}
