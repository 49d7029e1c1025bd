import { Command, CommanderError } from 'commander';
import { seedCommand } from './seed';
import { type Hooks, serveCommand } from './serve';
import { warmUp } from './warm';

// The library's in-process server (src/lib): dist/svc.cjs is the one build of the app, which
// dist/lib.cjs requires for it.
export { startInProcess } from '../lib/in-process';

/** Usage errors exit 2 with one line; help and --version exit 0. */
export async function main(argv: string[], hooks: Hooks = {}): Promise<void> {
  // `svc serve --help | head -1`: a reader that has read enough closes the pipe. What svc had left
  // to say goes nowhere; that is no fault of svc's, so it ends as it would have, quietly.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') {
      throw err;
    }
    process.exit(process.exitCode ?? 0);
  });
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
  (await import('./scenario')).scenarioCommand(program);
  (await import('./trigger')).triggerCommand(program);
  (await import('./replay')).replayCommand(program);
  (await import('./bundle')).bundleCommand(program);
  (await import('./coverage')).coverageCommand(program);
  (await import('./store')).storeCommand(program);
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
    const unknown = unknownCommand(program, argv.slice(2));
    if (unknown) {
      program.error(`error: unknown command '${unknown.name}' (see ${unknown.help})`, {
        exitCode: 2,
        code: 'commander.unknownCommand',
      });
    }
    await program.parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      process.exitCode = err.exitCode === 0 ? 0 : 2;
      return;
    }
    throw err;
  }
}

/**
 * The first word of `args` that names no command where a command is expected, with the help to
 * read instead. Checked before commander parses: commander answers `svc nope --help` with the
 * parent's help and exit 0, which hides that the command does not exist. Only commands with
 * subcommands are looked into. A command may have options of its own as well as subcommands
 * (`svc replay --from x`, `svc replay deliveries`): the value of one of its options is no word.
 */
function unknownCommand(
  program: Command,
  args: string[],
): { name: string; help: string } | undefined {
  let command = program;
  const path: string[] = [];
  let i = 0;
  const nextWord = (): string | undefined => {
    for (; i < args.length; i++) {
      const arg = args[i] as string;
      if (!arg.startsWith('-')) {
        i++;
        return arg;
      }
      if (!arg.includes('=') && takesValue(command, arg)) {
        i++;
      }
    }
    return undefined;
  };
  for (
    let word = nextWord();
    word !== undefined && command.commands.length > 0;
    word = nextWord()
  ) {
    // `svc help <command>`: commander's help command takes one name, of this level's commands
    const named = word === 'help' ? nextWord() : word;
    const next = named === undefined ? command : findCommand(command, named);
    if (!next) {
      return { name: [...path, named].join(' '), help: ['svc', ...path, '--help'].join(' ') };
    }
    if (word === 'help') {
      return undefined;
    }
    command = next;
    path.push(word);
  }
  return undefined;
}

/** `--from` of `svc replay`: an option of `command` followed by its value. */
function takesValue(command: Command, flag: string): boolean {
  const option = command.options.find((o) => o.long === flag || o.short === flag);
  return option !== undefined && (option.required || option.optional);
}

function findCommand(parent: Command, name: string): Command | undefined {
  return parent.commands.find((c) => c.name() === name || c.aliases().includes(name));
}
