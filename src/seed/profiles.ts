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
