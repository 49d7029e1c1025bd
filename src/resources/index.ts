import type { Family } from '../platform/family';
import { contacts } from './contacts';
import { estimateTemplates } from './estimate-templates';
import { estimates } from './estimates';
import { files } from './files';
import { hail } from './hail';
import { invoices } from './invoices';
import { jobs } from './jobs';
import { notes } from './notes';
import { payments } from './payments';
import { pins } from './pins';
import { pipelines } from './pipelines';
import { stormLists } from './storm-lists';
import { tasks } from './tasks';
import { users } from './users';
import { webhooks } from './webhooks';
import { workspace } from './workspace';

/**
 * Every resource family, in the order /v1 mounts their operations and the event catalogue lists
 * their events. A new family is its folder and one line here.
 */
export const FAMILIES: readonly Family[] = [
  workspace,
  users,
  pipelines,
  estimateTemplates,
  jobs,
  contacts,
  tasks,
  estimates,
  invoices,
  payments,
  notes,
  files,
  pins,
  stormLists,
  hail,
  webhooks,
];

/**
 * The families whose records hang off a job, in the order the jobs family gives (its lists,
 * and the seeding of each job, follow it); any it does not name come after, in registry order.
 */
export function jobChildren(): Family[] {
  const order = FAMILIES.find((f) => f.children)?.children ?? [];
  const rank = (f: Family) => {
    const at = order.indexOf(f.name);
    return at === -1 ? order.length : at;
  };
  return FAMILIES.filter((f) => f.onJob?.lists || f.onJob?.colls).sort((a, b) => rank(a) - rank(b));
}

// The subscription records and the rules the delivery worker applies to them: src/deliveries
// and the inspector see the webhooks family only through here.
export {
  type AttemptResult,
  afterAttempt,
  validSecrets,
  type Webhook,
} from './webhooks';
