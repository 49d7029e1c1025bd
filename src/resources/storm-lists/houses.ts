import type { Geography, ZipPlace } from '../common/geo';
import type { ExcludeReason, PropertyUse } from './schema';
import {
  COMPANY_KINDS,
  COMPANY_WORDS,
  DISTANT_ZIPS,
  FIRST_NAMES,
  FOREIGN_MAILING,
  GENERIC_OWNERS,
  LAST_NAMES,
  STREET_NAMES,
  STREET_SUFFIXES,
} from './vocabulary';

// The properties svc knows of (decisions: storm lists): each US ZIP holds a fixed number of them,
// house `i` of a ZIP always the same address, owner and mailing data, so two lists over the same
// streets name the same houses (and dedupe finds them). Everything is hashed from the ZIP and
// the house's number: no clock, no randomness, no faker.

/** 32-bit integer mixing (murmur3's finaliser): cheap, and well spread for nearby inputs. */
function fmix(h: number): number {
  let x = h | 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x >>> 0;
}

/** A number in [0, 1) that `a`, `b` and `c` alone decide. */
const unit = (a: number, b: number, c: number) =>
  fmix(a ^ fmix(b + 0x9e3779b9 * (c + 1))) / 2 ** 32;

const pick = <T>(list: readonly T[], u: number): T => list[Math.floor(u * list.length)] as T;

const HOUSES_PER_STREET = 24;

/** How many properties a ZIP holds. */
export const houseCount = (zip: ZipPlace): number =>
  150 + Math.floor(unit(Number(zip.postal_code), 1, 0) * 300);

/** A street line of a ZIP: the streets of one ZIP never share a name. */
function streetLine(zipSeed: number, street: number, house: number): string {
  const start = Math.floor(unit(zipSeed, 2, 0) * STREET_NAMES.length);
  // 7 is prime to the 50 names: a ZIP's first 50 streets all have names of their own.
  const name = STREET_NAMES[(start + street * 7) % STREET_NAMES.length] ?? 'Main';
  const suffix = pick(STREET_SUFFIXES, unit(zipSeed, 3, street));
  const base = 100 * (1 + Math.floor(unit(zipSeed, 4, street) * 89));
  const number = base + 2 * house + (unit(zipSeed, 5, street) < 0.5 ? 0 : 1);
  return `${number} ${name} ${suffix}`;
}

/** House `i` of a ZIP: its street line. */
export function houseAddress(zip: ZipPlace, i: number): string {
  const seed = Number(zip.postal_code);
  return streetLine(seed, Math.floor(i / HOUSES_PER_STREET), i % HOUSES_PER_STREET);
}

/** What the records say of a property, besides where it is and the hail it had. */
export interface HouseFacts {
  owner_name: string | null;
  owner_occupied: boolean;
  mailing_address: string | null;
  mailing_city: string | null;
  mailing_state: string | null;
  mailing_zip: string | null;
  mail_deliverable: boolean;
  mail_exclude_reason: ExcludeReason | null;
  year_built: number | null;
  property_use: PropertyUse;
  is_residential: boolean;
}

const USES: readonly [PropertyUse, number][] = [
  ['single_family', 0.76],
  ['townhouse', 0.04],
  ['condo', 0.05],
  ['multi_family', 0.05],
  ['mobile_home', 0.03],
  ['commercial', 0.05],
  ['vacant_land', 0.02],
];
/** Share of each use its owners live in. */
const OCCUPIED: Record<PropertyUse, number> = {
  single_family: 0.72,
  townhouse: 0.6,
  condo: 0.55,
  mobile_home: 0.6,
  multi_family: 0.1,
  commercial: 0,
  vacant_land: 0,
};
const RESIDENTIAL = new Set<PropertyUse>([
  'single_family',
  'townhouse',
  'condo',
  'multi_family',
  'mobile_home',
]);

function useOf(u: number): PropertyUse {
  let acc = 0;
  for (const [use, share] of USES) {
    acc += share;
    if (u < acc) {
      return use;
    }
  }
  return 'single_family';
}

function personName(seed: number, i: number): string {
  const first = pick(FIRST_NAMES, unit(seed, 20, i));
  const last = pick(LAST_NAMES, unit(seed, 21, i));
  const kind = unit(seed, 22, i);
  if (kind < 0.25) {
    return `${first} & ${pick(FIRST_NAMES, unit(seed, 23, i))} ${last}`;
  }
  return kind < 0.3 ? `${last} Family Trust` : `${first} ${last}`;
}

const companyName = (seed: number, i: number) =>
  `${pick(COMPANY_WORDS, unit(seed, 24, i))} ${pick(COMPANY_KINDS, unit(seed, 25, i))}`;

type Mailing = Pick<
  HouseFacts,
  'mailing_address' | 'mailing_city' | 'mailing_state' | 'mailing_zip'
>;

/** A ZIP within about 25 miles of `zip`, where a landlord of the neighbourhood lives. */
function nearbyZip(zip: ZipPlace, seed: number, i: number, geo: Geography): ZipPlace {
  const angle = unit(seed, 36, i) * 2 * Math.PI;
  const miles = 25 * Math.sqrt(unit(seed, 37, i));
  const lat = zip.latitude + (Math.sin(angle) * miles) / 69.05;
  const lon =
    zip.longitude + (Math.cos(angle) * miles) / (69.05 * Math.cos((zip.latitude * Math.PI) / 180));
  return geo.nearest(lat, lon) ?? zip;
}

/** Where an absentee owner gets mail: nearby, far away in the US, a PO box, or abroad. */
function mailingElsewhere(zip: ZipPlace, i: number, geo: Geography) {
  const seed = Number(zip.postal_code);
  const r = unit(seed, 30, i);
  if (r < 0.04) {
    return { mailing: foreign(pick(FOREIGN_MAILING, unit(seed, 31, i))), abroad: true };
  }
  const distant = r < 0.34 ? geo.zip(pick(DISTANT_ZIPS, unit(seed, 32, i))) : undefined;
  const home = distant ?? nearbyZip(zip, seed, i, geo);
  const line =
    r >= 0.34 && r < 0.44
      ? `PO Box ${100 + Math.floor(unit(seed, 34, i) * 9800)}`
      : streetLine(seed ^ 0x5bd1e995, 60 + (i % 400), Math.floor(unit(seed, 35, i) * 40));
  const mailing: Mailing = {
    mailing_address: line,
    mailing_city: home.city,
    mailing_state: home.state,
    mailing_zip: home.postal_code,
  };
  return { mailing, abroad: false };
}

const foreign = (f: (typeof FOREIGN_MAILING)[number]): Mailing => ({
  mailing_address: f.address,
  mailing_city: f.city,
  mailing_state: f.state,
  mailing_zip: f.zip,
});

const NO_MAILING: Mailing = {
  mailing_address: null,
  mailing_city: null,
  mailing_state: null,
  mailing_zip: null,
};

/** House `i` of a ZIP (at `address`) as the records hold it. */
export function houseFacts(zip: ZipPlace, i: number, address: string, geo: Geography): HouseFacts {
  const seed = Number(zip.postal_code);
  const use = useOf(unit(seed, 10, i));
  const occupied = unit(seed, 11, i) < OCCUPIED[use];
  const company = !occupied && (use === 'commercial' || unit(seed, 12, i) < 0.4);
  let owner: string | null = company ? companyName(seed, i) : personName(seed, i);
  let mailing: Mailing = occupied
    ? {
        mailing_address: address,
        mailing_city: zip.city,
        mailing_state: zip.state,
        mailing_zip: zip.postal_code,
      }
    : NO_MAILING;
  let abroad = false;
  if (!occupied) {
    ({ mailing, abroad } = mailingElsewhere(zip, i, geo));
  }
  // Some records are unusable for mail: no owner, a placeholder for one, no or half an address.
  const gap = unit(seed, 13, i);
  let reason: ExcludeReason | null = abroad ? 'foreign_mailing_address' : null;
  if (gap < 0.02) {
    owner = null;
    reason = 'no_owner_name';
  } else if (gap < 0.035) {
    owner = pick(GENERIC_OWNERS, unit(seed, 14, i));
    reason = 'generic_owner_name';
  } else if (gap < 0.05) {
    mailing = NO_MAILING;
    reason = 'no_mailing_address';
  } else if (gap < 0.06 && !abroad) {
    mailing = { ...mailing, mailing_zip: null };
    reason = 'incomplete_mailing_address';
  }
  const built = 1948 + Math.floor(unit(seed, 15, i) ** 0.7 * 76);
  return {
    owner_name: owner,
    owner_occupied: occupied,
    ...mailing,
    mail_deliverable: reason === null,
    mail_exclude_reason: reason,
    year_built: use === 'vacant_land' ? null : built,
    property_use: use,
    is_residential: RESIDENTIAL.has(use),
  };
}
