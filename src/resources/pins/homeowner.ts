import { splitName } from '../contacts/api';

// spec, Pin: homeowner_name, and its first and last halves. decisions.md: a name sent is split
// into first and last where those are not sent (as a contact's is); first or last sent alone make
// the name again; no name known is null (spec, Conventions: a value the service does not have is
// null, not an empty string), though the field table lists only the halves as nullable.

export interface HomeownerNames {
  homeowner_name: string | null;
  homeowner_first_name: string | null;
  homeowner_last_name: string | null;
}

/** What a body says of the names: undefined where it says nothing, null (or "") to clear. */
export interface SentNames {
  homeowner_name?: string | null | undefined;
  homeowner_first_name?: string | null | undefined;
  homeowner_last_name?: string | null | undefined;
}

export const NO_NAME: HomeownerNames = {
  homeowner_name: null,
  homeowner_first_name: null,
  homeowner_last_name: null,
};

const half = (value: string | null | undefined): string | null | undefined =>
  value === undefined ? undefined : value === null || value.trim() === '' ? null : value.trim();

/** The names after a body: `current`'s, changed where the body says so. */
export function namesAfter(current: HomeownerNames, sent: SentNames): HomeownerNames {
  const next: HomeownerNames = {
    homeowner_name: current.homeowner_name,
    homeowner_first_name: current.homeowner_first_name,
    homeowner_last_name: current.homeowner_last_name,
  };
  if (sent.homeowner_name !== undefined) {
    const name = sent.homeowner_name?.trim().replace(/\s+/g, ' ') || null;
    const split = splitName(name ?? '');
    next.homeowner_name = name;
    next.homeowner_first_name = split.first_name;
    next.homeowner_last_name = split.last_name;
  }
  const first = half(sent.homeowner_first_name);
  const last = half(sent.homeowner_last_name);
  if (first !== undefined) {
    next.homeowner_first_name = first;
  }
  if (last !== undefined) {
    next.homeowner_last_name = last;
  }
  // A half sent wins for its half, and the name is made again from the two, so the three never
  // disagree ("Ada King" with last name "Lovelace" is "Ada Lovelace").
  if (first !== undefined || last !== undefined) {
    next.homeowner_name =
      [next.homeowner_first_name, next.homeowner_last_name]
        .filter((part) => part !== null)
        .join(' ') || null;
  }
  return next;
}
