// Door knocks over HTTP. Reads: GET /v1/pins/{id} and GET /v1/pins?limit=50 on a `--profile
// large` data file (about 4,300 pins), svc against the bare server answering the same stored
// records (bench/http-reads.ts). Writes: durable POST /v1/pins, placed by an address (the ZIP
// table looked up, the street hashed to its spot) and by coordinates (the nearest ZIP found),
// against durable POST /v1/contacts on the same file, a write that places nothing: what geocoding
// adds to a knock. Each run on a fresh copy, after a 1 s warm-up (which also loads the ZIP table),
// rounds alternating. A figure with any failed request is a FAIL, counts shown.
// Run: npm run bench:pins (after `npm run build`). Smoke: BENCH_SECONDS=1 npm run bench:pins.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CONNECTIONS,
  type Figures,
  fmt,
  median,
  ROUNDS,
  readsOf,
  SECONDS,
  seedLarge,
  verdict,
  type WriteCase,
  writeRun,
} from './http-reads';
import { ensureBuilt } from './server-process';

/** ZIPs the knocks are spread over, and a point near each (Dallas, Denver, Austin, Atlanta). */
const ZIPS = ['75201', '80202', '73301', '30303'];
const NEAR: [number, number][] = [
  [32.7904, -96.8044],
  [39.7491, -104.9946],
  [30.3264, -97.7713],
  [33.7525, -84.3888],
];

/** A write of the comparison, by its name. */
interface NamedWrite extends WriteCase {
  name: string;
}

const CASES: NamedWrite[] = [
  {
    name: 'POST /v1/contacts (places nothing)',
    path: '/v1/contacts',
    body: (n) => ({ name: `Bench Person ${n}`, address: `${n} Bench Street` }),
  },
  {
    name: 'POST /v1/pins by address',
    path: '/v1/pins',
    body: (n) => ({
      address: `${n} Bench Street`,
      postal_code: ZIPS[n % ZIPS.length],
      knock_result: 'no_answer',
    }),
  },
  {
    name: 'POST /v1/pins by coordinates',
    path: '/v1/pins',
    body: (n) => {
      const [lat, lon] = NEAR[n % NEAR.length] ?? [32.79, -96.8];
      const jitter = ((n % 997) - 498) / 100_000;
      return { latitude: lat + jitter, longitude: lon - jitter, homeowner_name: 'Bench Owner' };
    },
  },
];

async function writes(dir: string, seeded: string, key: string): Promise<void> {
  console.log(
    `\nwrites over HTTP: durable, ${CONNECTIONS} connections, ${SECONDS} s a run after a 1 s warm-up, ${ROUNDS} rounds alternating, each on a fresh copy`,
  );
  const runs = CASES.map(() => [] as Figures[]);
  for (let round = 0; round < ROUNDS; round++) {
    // Every other round backwards: on a shared machine no case always runs first.
    const order = [...CASES.keys()];
    for (const i of round % 2 === 0 ? order : order.reverse()) {
      runs[i]?.push(await writeRun(dir, seeded, key, CASES[i] as NamedWrite));
    }
  }
  const medians = runs.map(median);
  for (const [i, c] of CASES.entries()) {
    console.log(`  ${c.name.padEnd(36)} ${fmt(medians[i] as Figures)}`);
  }
  const base = medians[0] as Figures;
  for (const i of [1, 2]) {
    const ratio = (medians[i] as Figures).perSecond / base.perSecond;
    const all = [...(runs[0] ?? []), ...(runs[i] ?? [])];
    console.log(
      `  ${CASES[i]?.name} / contacts ${ratio.toFixed(2)} (goal >= 0.8): ${verdict(ratio, 0.8, all)}`,
    );
  }
}

async function main(): Promise<void> {
  ensureBuilt();
  const dir = await mkdtemp(join(tmpdir(), 'svc-bench-pins-'));
  try {
    const seeded = join(dir, 'seeded.json');
    const { workspaceId, key } = seedLarge(seeded);
    await readsOf('pins', dir, seeded, workspaceId, key, { one: 0.5 });
    await writes(dir, seeded, key);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
