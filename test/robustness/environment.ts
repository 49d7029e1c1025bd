import { widgetRoutes } from '../support/fixture-routes';
import { type Client, type Harness, harness } from '../support/harness';
import type { Who } from './cases';

// One app and its workspaces per test: a client and a key for every kind of caller.

export interface Env {
  h: Harness;
  workspaceId: string;
  clients: Record<Who, Client>;
  keys: Record<Who, string | undefined>;
}

export async function environment(): Promise<Env> {
  const h = harness({ rateLimit: null }, { extend: widgetRoutes });
  const ws = await h.workspace({ name: 'Robust Roofing' });
  const unpaid = await h.workspace({ name: 'Lapsed Roofing', subscription_active: false });
  const minted = await h.admin.post(`/workspaces/${ws.id}/keys`, { access: 'write' });
  const revoked = await h.admin.delete(`/keys/${minted.body.id}`);
  if (minted.status !== 201 || revoked.status !== 200) {
    throw new Error(`could not mint and revoke a key: ${minted.text} ${revoked.text}`);
  }
  return {
    h,
    workspaceId: ws.id,
    clients: {
      write: ws.api,
      read: ws.read,
      nobody: h.anonymous,
      revoked: h.as(minted.body.key),
      unpaid: unpaid.api,
      admin: h.admin,
    },
    keys: {
      write: ws.keys.write.key,
      read: ws.keys.read.key,
      nobody: undefined,
      revoked: minted.body.key,
      unpaid: unpaid.keys.write.key,
      admin: undefined,
    },
  };
}
