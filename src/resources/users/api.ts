// What other families use of the users family: they import it through here and
// nowhere else (test/architecture holds them to it).

export type { User } from './schema';
export { listUsers, requireUser, userFilter } from './service';
