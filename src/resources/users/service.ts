import type { z } from '@hono/zod-openapi';
import { ApiError } from '../../platform/errors';
import { badFilter, type FilterDef, filterText, shape } from '../../platform/family';
import type { ServiceContext } from '../../platform/service-context';
import { ROLES, type User, UserSchema } from './schema';

export const presentUser = (user: User): z.infer<typeof UserSchema> => shape(UserSchema, user, {});

/** The workspace's own team: owners first, then by role, then by name. */
export function listUsers(ctx: ServiceContext): User[] {
  return [...ctx.ws.values('users')].sort(
    (a, b) => ROLES.indexOf(a.role) - ROLES.indexOf(b.role) || a.name.localeCompare(b.name),
  );
}

/** A teammate of this workspace, for `assigned_to` and the like; another workspace's is unknown. */
export const findUser = (ctx: ServiceContext, id: string): User | undefined =>
  ctx.ws.get('users', id);

/** For a field that names a teammate: 400 naming the field when there is no such user. */
export function requireUser(ctx: ServiceContext, id: string, field: string): User {
  const user = findUser(ctx, id);
  if (!user) {
    throw new ApiError('invalid_request', `${field} is not a user of this workspace`, field);
  }
  return user;
}

/** spec, Filters: `assigned_to` takes a user of the workspace and reads the record's assignee. */
export const userFilter = (key: string, label: string, field: string): FilterDef => ({
  key,
  label,
  kind: 'user',
  field,
  check: (ctx, value) => {
    const id = filterText(key, value).trim().toLowerCase();
    if (!findUser(ctx, id)) {
      throw badFilter(key, `filters.${key} is not a user of this workspace`);
    }
    return id;
  },
});
