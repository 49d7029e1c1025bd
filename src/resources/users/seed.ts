import { DAY, type Profile, type SeedStep } from '../../platform/family';
import type { ROLES, User } from './schema';

type Role = (typeof ROLES)[number];

/** The team each profile starts with. */
const TEAMS: Record<Profile, Partial<Record<Role, number>>> = {
  empty: { owner: 1 },
  small: { owner: 1, admin: 1, sales_rep: 2, project_manager: 1 },
  demo: { owner: 1, admin: 1, manager: 1, sales_rep: 4, project_manager: 2, office: 1, crew: 2 },
  large: { owner: 1, admin: 2, manager: 3, sales_rep: 14, project_manager: 4, office: 3, crew: 6 },
};

/** The owner joins with the workspace; the rest of the team within its first year. */
export const userSeed: SeedStep = {
  workspace(s) {
    const f = s.faker;
    let count = 0;
    for (const [role, n] of Object.entries(TEAMS[s.profile])) {
      for (let i = 0; i < (n ?? 0); i++) {
        const first = f.person.firstName();
        const last = f.person.lastName();
        const joined = new Date(
          s.since + (count === 0 ? 0 : f.number.int({ min: 1, max: 300 }) * DAY),
        ).toISOString();
        s.add('users', {
          id: f.string.uuid(),
          object: 'user',
          name: `${first} ${last}`,
          email: `${first}.${last}@${s.domain}`.toLowerCase().replace(/[^a-z0-9.@-]/g, ''),
          role: role as Role,
          phone: f.phone.number({ style: 'national' }),
          created_at: joined,
          updated_at: joined,
        } satisfies User);
        count += 1;
      }
    }
  },
};
