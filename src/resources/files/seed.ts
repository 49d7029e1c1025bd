import { createHash } from 'node:crypto';
import zipcodes from 'zipcodes';
import { DAY, iso, type Profile, type Seeding, type SeedStep } from '../../platform/family';
import { seededUuid } from '../../seed/keys';
import { Geography, isLocated, unitOf } from '../common/geo';
import { generatedPhoto } from './jpeg';
import type { FileRecord } from './schema';

// decisions.md, Files: seeded jobs carry the photos a crew took at the house, each with its EXIF
// position a few dozen metres from the job's address and the time it was taken. A seeded photo
// has no uploaded bytes: they are made from its record whenever it is downloaded (jpeg.ts).
// Nothing here draws from faker: every choice is a hash of the job, so adding photos leaves the
// records the families after this one draw exactly as they were.

export const PHOTO_CAPTIONS = [
  'North slope: hail hits, about 8 per test square',
  'Dented gutter and downspout on the front elevation',
  'Soft metals: roof vent cap dented',
  'Ridge cap cracked and granules lost',
  'Drip edge bent back at the corner',
  'Wide shot of the front elevation',
  'Window screen torn by hail',
  'Chalked test square on the west slope',
] as const;

/** The fewest and most photos a job carries; a showcase job has at least one. */
const PER_JOB: Record<Profile, [number, number]> = {
  empty: [0, 0],
  small: [0, 1],
  demo: [2, 4],
  large: [0, 0],
};

const METRES_PER_DEG = 111_320;

/** Where a seeded job stands: its address placed as geocoding places it, else the market. */
function jobPlace(s: Seeding, job: { address: string | null; postal_code: string | null }) {
  const zip = job.postal_code ? zipcodes.lookup(job.postal_code) : undefined;
  const found = zip
    ? new Geography([zip]).locate({ address: job.address, postal_code: zip.zip })
    : undefined;
  return found && isLocated(found) ? found : s.market;
}

export const fileSeed: SeedStep = {
  job(s, job) {
    const [fewest, most] = PER_JOB[s.profile];
    const showcase = s.showcase.has(job.id) ? 1 : 0;
    const count = Math.max(
      showcase,
      fewest + Math.floor(unitOf(job.id, 'photos') * (most - fewest + 1)),
    );
    if (count === 0) {
      return;
    }
    const at = jobPlace(s, job);
    const from = Date.parse(job.created_at);
    for (let i = 0; i < count; i++) {
      const salt = `${job.id}:${i}`;
      const u = (what: string) => unitOf(salt, what);
      // Whole seconds: EXIF keeps no fraction, and the record says what the photo says.
      const span = Math.max(s.until - DAY / 24 - from, 0);
      const taken = Math.floor((from + u('taken') * span) / 1000) * 1000;
      const uploaded = Math.min(taken + (1 + Math.floor(u('upload') * 90)) * 60_000, s.until - 1);
      // Taken around the house: 10 to 60 metres from the address, in any direction.
      const angle = u('angle') * 2 * Math.PI;
      const metres = 10 + u('distance') * 50;
      const latitude = round6(at.latitude + (Math.sin(angle) * metres) / METRES_PER_DEG);
      const longitude = round6(
        at.longitude +
          (Math.cos(angle) * metres) / (METRES_PER_DEG * Math.cos((at.latitude * Math.PI) / 180)),
      );
      const id = seededUuid(`file:${salt}`);
      const photo = {
        name: `IMG_${String(1000 + Math.floor(u('name') * 9000))}.jpg`,
        latitude,
        longitude,
        taken_at: iso(taken),
      };
      const caption = PHOTO_CAPTIONS[Math.floor(u('caption') * PHOTO_CAPTIONS.length)];
      const file: FileRecord = {
        id,
        object: 'file',
        job_id: job.id,
        ...photo,
        category: 'photo',
        mime_type: 'image/jpeg',
        is_photo: true,
        is_video: false,
        size_bytes: generatedPhoto(photo).length,
        description: u('captioned') < 0.6 ? (caption ?? null) : null,
        tags: u('tagged') < 0.3 ? ['hail'] : [],
        uploaded_by_id: job.assigned_to_id,
        created_at: iso(uploaded),
        // Seeded like the keys of `svc seed` files: from the seed (anyone holding it can make the
        // links of a seeded photo, which is made from its record alone).
        link_key: createHash('sha256').update(`svc-seed:file-link:${id}`).digest('hex'),
        bytes: 'generated',
      };
      s.add('files', file);
    }
  },
};

const round6 = (n: number) => Math.round(n * 1e6) / 1e6;
