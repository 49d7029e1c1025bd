import { iso, type Profile, type Seeding, type SeedStep } from '../../platform/family';
import type { Contact } from './schema';
import { NEW_CONTACT } from './service';

export const MORTGAGE_COMPANIES = [
  'Wells Fargo Home Mortgage',
  'Rocket Mortgage',
  'Chase',
  'Mr. Cooper',
  'PennyMac',
] as const;

export const ADJUSTER_TYPES = ['field', 'desk', 'independent'] as const;

/** People who are on no job: subcontractors, crews, inspectors, lenders. */
const LOOSE: Record<Profile, number> = { empty: 0, small: 4, demo: 15, large: 300 };

/**
 * A contact made at `at` with a drawn name, email and phone, `fields` over the rest. The jobs
 * seeding makes homeowners and adjusters with it, coherent with their jobs.
 */
export function seedContact(
  s: Seeding,
  fields: Partial<Contact> & Pick<Contact, 'type'>,
  at: number,
): Contact {
  const f = s.faker;
  const first = f.person.firstName();
  const last = f.person.lastName();
  const contact: Contact = {
    ...NEW_CONTACT,
    id: f.string.uuid(),
    object: 'contact',
    first_name: first,
    last_name: last,
    email: f.internet
      .email({ firstName: first, lastName: last, provider: 'example.com' })
      .toLowerCase(),
    phone: f.phone.number({ style: 'national' }),
    created_at: iso(at),
    updated_at: iso(at),
    deleted_at: null,
    ...fields,
  };
  s.add('contacts', contact);
  return contact;
}

function looseContact(s: Seeding): void {
  const f = s.faker;
  const type = f.helpers.arrayElement([
    'subcontractor',
    'install_crew',
    'inspector',
    'mortgage_company',
    'contractor',
  ] as const);
  const company =
    type === 'mortgage_company'
      ? f.helpers.arrayElement(MORTGAGE_COMPANIES)
      : `${f.person.lastName()} ${type === 'install_crew' ? 'Crew' : 'Services'}`;
  seedContact(
    s,
    {
      type,
      company,
      trades:
        type === 'subcontractor'
          ? [f.helpers.arrayElement(['gutters', 'siding', 'windows', 'paint'])]
          : [],
    },
    s.when(s.since),
  );
}

/** Homeowners and adjusters come with their jobs (jobs seeding); these are the others. */
export const contactSeed: SeedStep = {
  workspace(s) {
    for (let i = 0; i < LOOSE[s.profile]; i++) {
      looseContact(s);
    }
  },
};
