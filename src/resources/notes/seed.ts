import type { Profile, SeedStep } from '../../platform/family';

export const NOTE_LINES = [
  'Met homeowner on site. Hail hits on the north and west slopes, soft metals dented.',
  'Left a door hanger; no answer. Will come back Saturday morning.',
  'Homeowner filed the claim by phone; waiting on the adjuster assignment.',
  'Adjuster meeting went well: full roof approval, gutters on the front elevation.',
  'Sent the supplement for ice and water shield and drip edge.',
  'Materials ordered: architectural shingles, weathered wood color.',
  'Crew scheduled; dumpster drop the day before.',
  'Install complete. Cleaned up with a magnet sweep; homeowner happy.',
  'Depreciation released after the completion certificate.',
  'Homeowner asked about financing for the retail upgrade to metal.',
  'Photos uploaded from the inspection: 8 hits per test square.',
  'Called the mortgage company about endorsing the insurance check.',
] as const;

/** Notes a job carries on average. */
const PER_JOB: Record<Profile, number> = { empty: 0, small: 1.5, demo: 2.5, large: 1 };

/** A job's notes, written by its rep after it was made; a showcase job has at least one. */
export const noteSeed: SeedStep = {
  job(s, job) {
    const mean = s.showcase.has(job.id) ? Math.max(PER_JOB[s.profile], 1) : PER_JOB[s.profile];
    for (let i = s.count(mean); i > 0; i--) {
      const at = new Date(s.when(Date.parse(job.created_at))).toISOString();
      s.add('notes', {
        id: s.faker.string.uuid(),
        object: 'note',
        job_id: job.id,
        content: s.faker.helpers.arrayElement(NOTE_LINES),
        author_id: job.assigned_to_id,
        created_at: at,
        updated_at: at,
      });
    }
  },
};
