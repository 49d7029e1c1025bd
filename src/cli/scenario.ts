import { writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import {
  junitXml,
  MissingPath,
  type Report,
  resultLine,
  runScenarios,
  summaryLine,
  UsageError,
} from '../clients/scenario';
import { prepareReportFile, reportFileProblem } from './report-file';

interface RunFlags {
  baseUrl?: string;
  key?: string;
  readKey?: string;
  controlToken?: string;
  junit?: string;
  json?: boolean;
  bail?: boolean;
  filter?: string;
}

export function scenarioCommand(program: Command): void {
  const scenario = program
    .command('scenario')
    .description('conformance scenarios: requests with the answers the spec requires');
  scenario
    .command('run')
    .description('run scenario files against svc (in-process, by default) or any base URL')
    .argument(
      '[paths...]',
      'scenario files or folders, walked for .yaml, .yml, .json (default: scenarios/)',
    )
    .option('--base-url <url>', 'run against this server (http://HOST:PORT or .../v1)')
    .option(
      '--key <key>',
      'write key for --base-url (without it, svc makes a workspace a scenario)',
    )
    .option('--read-key <key>', 'read-only key for --base-url, for steps with key: read')
    .option(
      '--control-token <token>',
      "a workspace's control token (svc_ctl_...) for a shared svc's control API, with --key of that workspace",
    )
    .option('--junit <file>', 'also write a JUnit XML report to this file')
    .option('--json', 'print a JSON report instead of the lines')
    .option('--bail', 'stop after the first failure')
    .option('--filter <text>', 'run only scenarios whose name contains this text (any case)')
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  svc scenario run                                   # scenarios/, svc in-process',
        '  svc scenario run scenarios/events --junit report.xml',
        '  svc scenario run my.yaml --base-url http://127.0.0.1:4010 --key svc_live_...',
        '  svc scenario run my.yaml --base-url http://svc.team:4010 --key svc_live_... --control-token svc_ctl_...',
        '',
        'Without --base-url, svc starts in-process on a fresh temporary store, one workspace a',
        'scenario. With --base-url and no --key, the server must be svc (its control API makes',
        'the workspaces). Scenarios with clock or admin steps are skipped against other servers.',
        'A 429 a step does not expect is waited out (Retry-After, at most 60 s) and sent again.',
        'A run that matches no scenario, a --junit file that cannot be written, a server that',
        'cannot be reached or a --key GET /ping refuses: exit 2 before anything runs.',
        'Exit status: 0 none failed, 1 some failed, 2 bad usage.',
      ].join('\n'),
    )
    .action(async (paths: string[], flags: RunFlags, command: Command) => {
      await run(paths, flags, (message) => command.error(`error: ${message}`, { exitCode: 2 }));
    });
}

async function run(
  paths: string[],
  flags: RunFlags,
  usage: (message: string) => never,
): Promise<void> {
  const out = (text: string) => process.stdout.write(`${text}\n`);
  // before anything runs: a report that cannot be written is bad usage, not a lost run
  let undo = async () => {};
  if (flags.junit !== undefined) {
    const prepared = await prepareReportFile(flags.junit);
    if (!prepared.ok) {
      usage(reportFileProblem('--junit', flags.junit, prepared.problem));
    }
    undo = prepared.undo;
  }
  let report: Report;
  try {
    report = await runScenarios({
      paths,
      ...(flags.baseUrl === undefined ? {} : { baseUrl: flags.baseUrl }),
      ...(flags.key === undefined ? {} : { key: flags.key }),
      ...(flags.readKey === undefined ? {} : { readKey: flags.readKey }),
      ...(flags.controlToken === undefined ? {} : { controlToken: flags.controlToken }),
      ...(flags.filter === undefined ? {} : { filter: flags.filter }),
      bail: flags.bail === true,
      onResult: flags.json ? undefined : (r) => out(resultLine(r)),
    });
  } catch (err) {
    // no report comes: the file made by the check goes (no 0-byte report is left)
    await undo();
    if (err instanceof MissingPath || err instanceof UsageError) {
      usage(err.message);
    }
    process.stderr.write(`svc: ${(err as Error).message}\n`);
    process.exitCode = 1;
    return;
  }
  if (flags.json) {
    out(JSON.stringify(report, null, 2));
  } else {
    out(summaryLine(report));
  }
  if (flags.junit !== undefined) {
    try {
      await writeFile(flags.junit, junitXml(report));
    } catch (err) {
      process.stderr.write(
        `error: ${reportFileProblem('--junit', flags.junit, (err as Error).message)}\n`,
      );
      process.exitCode = 1;
      return;
    }
  }
  process.exitCode = report.failed > 0 ? 1 : 0;
}
