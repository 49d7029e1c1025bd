import { type ChaosConfig, describeChaos, seededShare, seededShuffle } from './chaos';
import { createDedupe } from './dedupe';
import { createForwarder } from './forwarder';
import { chaosForwarding, type Forwarding, plainForwarding } from './forwarding';
import { createReceiver } from './receiver';
import { openRecorder, type Recorder } from './recorder';
import { createResponder } from './responder';
import { type RunningListener, startListener } from './server';
import { apiBase, type Subscribed, type SvcApi, subscribe, unsubscribe } from './subscriber';

// svc webhook listen: a local receiver integrators test their webhook setup against.

export interface ListenConfig {
  host: string;
  port: number;
  /** --secret values; the secret of a subscription made with --server is added to them. */
  secrets: string[];
  /** --server, --key, --events. */
  subscribe: { server: string; key: string; events: string[] } | undefined;
  respond: number[];
  delayMs: number;
  forwardTo: string | undefined;
  record: string | undefined;
  toleranceSeconds: number;
  /** --drop, --duplicate, --reorder and --seed. */
  chaos: ChaosConfig;
  out: (line: string) => void;
  warn: (line: string) => void;
}

export interface Listening {
  url: string;
  /** Deliveries received since start, rejected and duplicate ones included. */
  received(): number;
  /** Deletes the subscriptions it made, then stops; false when something could not be undone. */
  stop(): Promise<boolean>;
}

export async function listen(config: ListenConfig): Promise<Listening> {
  const recorder = config.record === undefined ? undefined : await openRecord(config.record);
  const secrets = [...config.secrets];
  const verify = secrets.length > 0 || config.subscribe !== undefined;
  let running: RunningListener;
  try {
    running = await startListener({
      host: config.host,
      port: config.port,
      receive: createReceiver({
        verify,
        secrets,
        toleranceSeconds: config.toleranceSeconds,
        responder: createResponder(config.respond),
        dedupe: createDedupe(),
        drop:
          config.chaos.drop > 0
            ? seededShare('drop', config.chaos.seed, config.chaos.drop)
            : undefined,
      }),
      delayMs: config.delayMs,
      recorder,
      forwarding: forwarding(config),
      out: config.out,
      warn: config.warn,
    });
  } catch (err) {
    await recorder?.close();
    throw new Error(`cannot listen on ${config.host}:${config.port}: ${(err as Error).message}`);
  }
  let made: Made | undefined;
  if (config.subscribe) {
    const api = { base: apiBase(config.subscribe.server), key: config.subscribe.key };
    try {
      made = { api, ...(await subscribe(api, config.subscribe.events, `${running.url}/`)) };
    } catch (err) {
      await running.close();
      await recorder?.close();
      throw err;
    }
    secrets.push(made.secret);
  }
  printBanner(config, verify, running.url, made);
  return {
    url: running.url,
    received: () => running.received(),
    stop: () => stop(running, recorder, made, config.warn),
  };
}

// decisions.md, Receiver chaos: a batch smaller than --reorder N waits this long at most
const REORDER_IDLE_MS = 1000;

function forwarding(config: ListenConfig): Forwarding | undefined {
  if (!config.forwardTo) {
    return undefined;
  }
  const forward = createForwarder(config.forwardTo, config.warn);
  const { duplicate, reorder, seed } = config.chaos;
  if (duplicate === 0 && reorder === 0) {
    return plainForwarding(forward);
  }
  return chaosForwarding({
    forward,
    duplicate: seededShare('duplicate', seed, duplicate),
    reorder,
    shuffle: seededShuffle(seed),
    idleMs: REORDER_IDLE_MS,
    out: config.out,
  });
}

/** The subscriptions this listener made, deleted when it stops. */
interface Made extends Subscribed {
  api: SvcApi;
}

async function openRecord(file: string): Promise<Recorder> {
  try {
    return await openRecorder(file);
  } catch (err) {
    throw new Error(`cannot append to --record ${file}: ${(err as Error).message}`);
  }
}

async function stop(
  running: RunningListener,
  recorder: Recorder | undefined,
  made: Made | undefined,
  warn: (line: string) => void,
): Promise<boolean> {
  // Unsubscribe first, so svc stops sending before the port closes.
  let clean = true;
  if (made) {
    for (const { id } of made.webhooks) {
      try {
        await unsubscribe(made.api, id);
      } catch (err) {
        clean = false;
        warn(`could not delete subscription ${id}: ${(err as Error).message}`);
      }
    }
  }
  await running.close();
  await recorder?.close();
  return clean;
}

function printBanner(
  config: ListenConfig,
  verify: boolean,
  url: string,
  made: Made | undefined,
): void {
  const out = config.out;
  out(
    verify
      ? `svc webhook listen: verifying signatures (tolerance ${config.toleranceSeconds} s)`
      : 'svc webhook listen: NOT verifying signatures (no --secret): every delivery is unverified',
  );
  if (config.secrets.length > 0) {
    const count = config.secrets.length;
    out(`  secret     from --secret${count > 1 ? ` (${count}, any may sign)` : ''}`);
  }
  if (made) {
    // printed in full: an app behind --forward-to verifies the same signatures with it
    out(`  secret     ${made.secret} (from the new subscription)`);
    for (const id of made.replaced) {
      out(`  replaced   ${id} (an identical subscription an earlier listener left behind)`);
    }
    for (const webhook of made.webhooks) {
      out(`  subscribed ${webhook.id} ${webhook.event} on ${made.api.base} (deleted on exit)`);
    }
  }
  out(`  answering  ${describeStatuses(config.respond, verify)}`);
  if (config.delayMs > 0) {
    out(`  delay      ${config.delayMs} ms before each answer`);
  }
  if (config.forwardTo) {
    out(`  forwarding ${verify ? 'verified' : 'accepted'} deliveries to ${config.forwardTo}`);
  }
  if (config.record) {
    out(`  recording  to ${config.record}`);
  }
  const chaos = describeChaos(config.chaos);
  if (chaos) {
    out(`  chaos      ${chaos}`);
  }
  out(`svc webhook listen on ${url}`);
}

function describeStatuses(statuses: readonly number[], verify: boolean): string {
  const head = statuses.slice(0, -1);
  const last = statuses[statuses.length - 1];
  const tail = verify
    ? `${last} to verified deliveries, 400 to rejected ones`
    : `${last} to every delivery`;
  return head.length === 0 ? tail : `${head.join(', ')}, then ${tail}`;
}
