import type { ROLES } from '../resources/users/schema';

export const PROFILES = ['empty', 'small', 'demo', 'large'] as const;
export type Profile = (typeof PROFILES)[number];

type Role = (typeof ROLES)[number];

/** The team each profile starts with; later resources add their record counts here. */
export const TEAMS: Record<Profile, Partial<Record<Role, number>>> = {
  empty: { owner: 1 },
  small: { owner: 1, admin: 1, sales_rep: 2, project_manager: 1 },
  demo: { owner: 1, admin: 1, manager: 1, sales_rep: 4, project_manager: 2, office: 1, crew: 2 },
  large: { owner: 1, admin: 2, manager: 3, sales_rep: 14, project_manager: 4, office: 3, crew: 6 },
};

/** Templates each profile carries (the first N of the vocabulary). */
export const TEMPLATE_COUNT: Record<Profile, number> = { empty: 2, small: 3, demo: 5, large: 5 };

/** The records each profile carries (large is for benchmarks: 10,000 jobs, about 25 MB). */
export const RECORDS: Record<
  Profile,
  { jobs: number; looseContacts: number; tasksPer: number; notesPer: number }
> = {
  empty: { jobs: 0, looseContacts: 0, tasksPer: 0, notesPer: 0 },
  small: { jobs: 14, looseContacts: 4, tasksPer: 1, notesPer: 1.5 },
  demo: { jobs: 72, looseContacts: 15, tasksPer: 1.2, notesPer: 2.5 },
  large: { jobs: 10_000, looseContacts: 300, tasksPer: 0.4, notesPer: 1 },
};
