import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { CreatedWorkspaceSchema } from '../../admin/schemas';
import { revokeKey, setSubscription } from '../../admin/workspaces-service';
import { CreateAppSchema } from '../../oauth/schemas';
import { deleteConnection, registerApp } from '../../oauth/service';
import type { AppEnv } from '../../platform/app-env';
import { ApiError } from '../../platform/errors';
import { issueToError } from '../../platform/openapi/validation';
import type { ControlApi } from './control';
import { action, type Form, field, type Inspector, idParam } from './forms';

// The forms of the workspace pages: making a workspace or an app (on /inspector), and a
// workspace's subscription, keys and connections (on its own page). Each action is one of the
// control API's.

/** What POST /__admin/workspaces/{id}/keys answers: the key, shown once. */
const NewKeySchema = z.object({ key: z.string(), access: z.enum(['write', 'read']) });

/** A seed as typed: a number when it is one, else the text, for the control API to refuse. */
function seedOf(form: Form): number | string | undefined {
  const seed = field(form, 'seed');
  return seed === undefined ? undefined : /^-?\d+$/.test(seed) ? Number(seed) : seed;
}

const wsPage = (c: Context<AppEnv>) => `/inspector/workspaces/${idParam(c)}`;

export const createWorkspace = (ins: Inspector, control: ControlApi) =>
  action(
    ins,
    () => ['workspace.create'],
    () => '/inspector',
    async (_c, form) => {
      const made = CreatedWorkspaceSchema.parse(
        await control('POST', '/workspaces', {
          name: field(form, 'name'),
          profile: field(form, 'profile'),
          seed: seedOf(form),
        }),
      );
      return {
        text: `Workspace ${made.name} created.`,
        shown: [
          { label: 'Write key', value: made.keys.write.key },
          { label: 'Read-only key', value: made.keys.read.key },
        ],
        back: `/inspector/workspaces/${made.id}`,
      };
    },
  );

export const registerOAuthApp = (ins: Inspector) =>
  action(
    ins,
    () => ['oauth.register'],
    () => '/inspector',
    (_c, form) => {
      const uris = (form.redirect_uris ?? '')
        .split(/\r?\n/)
        .map((u) => u.trim())
        .filter((u) => u !== '');
      const input = CreateAppSchema.safeParse({ name: form.name ?? '', redirect_uris: uris });
      if (!input.success) {
        const first = input.error.issues[0];
        throw first ? issueToError(first) : new ApiError('invalid_request', 'check the form');
      }
      const app = registerApp(ins.rt, input.data);
      return {
        text: `App ${input.data.name} registered.`,
        shown: [
          { label: 'client_id', value: app.client_id },
          { label: 'client_secret', value: app.client_secret },
        ],
      };
    },
  );

export const turnSubscription = (ins: Inspector) =>
  action(
    ins,
    (c) => ['subscription', idParam(c), idParam(c, 'to')],
    wsPage,
    (c) => {
      const on = idParam(c, 'to') === 'on';
      setSubscription(ins.rt, idParam(c), on);
      return { text: on ? 'Subscription turned on.' : 'Subscription turned off.' };
    },
  );

export const createKey = (ins: Inspector, control: ControlApi) =>
  action(
    ins,
    (c) => ['key.create', idParam(c)],
    wsPage,
    async (c, form) => {
      const key = NewKeySchema.parse(
        await control('POST', `/workspaces/${idParam(c)}/keys`, {
          name: field(form, 'name'),
          access: form.access,
        }),
      );
      return {
        text: `A ${key.access} key was created.`,
        shown: [{ label: `Key (${key.access})`, value: key.key }],
      };
    },
  );

export const revokeApiKey = (ins: Inspector) =>
  action(
    ins,
    (c) => ['key.revoke', idParam(c)],
    (c) => {
      const key = ins.rt.store.global.get('api_keys', idParam(c));
      return key ? `/inspector/workspaces/${key.workspace_id}` : '/inspector';
    },
    (c) => {
      const key = revokeKey(ins.rt, idParam(c));
      return { text: `Key ${key.name} (${key.prefix}…) revoked.` };
    },
  );

export const disconnectApp = (ins: Inspector) =>
  action(
    ins,
    (c) => ['connection.disconnect', idParam(c), idParam(c, 'cid')],
    wsPage,
    (c) => {
      const conn = deleteConnection(ins.rt, idParam(c), idParam(c, 'cid'));
      return { text: `${conn.app_name ?? conn.client_id} disconnected.` };
    },
  );
