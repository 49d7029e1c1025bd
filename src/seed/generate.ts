// The faker half of seeding, loaded only when a workspace is generated: a start on an existing
// data file never pays for faker or the ZIP table.
import { faker } from '@faker-js/faker/locale/en_US';
import zipcodes from 'zipcodes';
import type { Workspace } from '../platform/auth';
import type { EstimateTemplate } from '../resources/estimate-templates/schema';
import type { Pipeline, Stage } from '../resources/pipelines/schema';
import type { User } from '../resources/users/schema';
import type { Profile } from './profiles';
import { TEAMS, TEMPLATE_COUNT } from './profiles';
import { type GeneratedRecords, generateRecords } from './records';
import { COMPANY_LEADS, COMPANY_TRADES, MARKETS, PIPELINES, TEMPLATES } from './vocabulary';

export interface GenerateOptions {
  profile: Profile;
  seed: number;
  /** Timestamps fall before this instant (ms). */
  anchorMs: number;
  name?: string | undefined;
  subscriptionActive?: boolean | undefined;
}

export interface Market {
  city: string;
  state: string;
  postal_code: string;
  latitude: number;
  longitude: number;
}

export interface Generated extends GeneratedRecords {
  workspace: Workspace & { market: Market };
  users: User[];
  pipelines: Pipeline[];
  stages: Stage[];
  estimate_templates: EstimateTemplate[];
}

const DAY = 24 * 60 * 60 * 1000;

/** A whole workspace as plain records; the same options give the same records. */
export function generateWorkspace(opts: GenerateOptions): Generated {
  faker.seed(opts.seed);
  faker.setDefaultRefDate(new Date(opts.anchorMs));
  const createdMs = opts.anchorMs - faker.number.int({ min: 400, max: 900 }) * DAY;
  const at = (ms: number) => new Date(ms).toISOString();
  const created = at(createdMs);

  const marketDef = faker.helpers.arrayElement(MARKETS);
  const place = zipcodes.lookup(marketDef.zip);
  const market: Market = {
    city: place?.city ?? 'Dallas',
    state: place?.state ?? 'TX',
    postal_code: marketDef.zip,
    latitude: place?.latitude ?? 32.79,
    longitude: place?.longitude ?? -96.8,
  };
  const companyName =
    opts.name ??
    `${faker.helpers.arrayElement(COMPANY_LEADS)} ${faker.helpers.arrayElement(COMPANY_TRADES)}`;
  const domain = `${companyName.toLowerCase().replace(/[^a-z0-9]+/g, '')}.example.com`;

  const workspace = {
    id: faker.string.uuid(),
    object: 'workspace' as const,
    name: companyName,
    subscription_active: opts.subscriptionActive ?? true,
    timezone: marketDef.timezone,
    market,
    created_at: created,
    updated_at: created,
  };

  const users: User[] = [];
  for (const [role, count] of Object.entries(TEAMS[opts.profile])) {
    for (let i = 0; i < (count ?? 0); i++) {
      const first = faker.person.firstName();
      const last = faker.person.lastName();
      const joined = at(
        createdMs + (users.length === 0 ? 0 : faker.number.int({ min: 1, max: 300 }) * DAY),
      );
      users.push({
        id: faker.string.uuid(),
        object: 'user',
        name: `${first} ${last}`,
        email: `${first}.${last}@${domain}`.toLowerCase().replace(/[^a-z0-9.@-]/g, ''),
        role: role as User['role'],
        phone: faker.phone.number({ style: 'national' }),
        created_at: joined,
        updated_at: joined,
      });
    }
  }

  const pipelines: Pipeline[] = [];
  const stages: Stage[] = [];
  PIPELINES.forEach((def, order) => {
    const pipeline: Pipeline = {
      id: faker.string.uuid(),
      object: 'pipeline',
      name: def.name,
      is_default: order === 0,
      order,
      created_at: created,
      updated_at: created,
    };
    pipelines.push(pipeline);
    def.stages.forEach((stage, stageOrder) => {
      stages.push({
        id: faker.string.uuid(),
        object: 'pipeline_stage',
        pipeline_id: pipeline.id,
        key: stage.key,
        label: stage.label,
        order: stageOrder,
        is_completed: stage.is_completed ?? false,
        is_lost: stage.is_lost ?? false,
        created_at: created,
        updated_at: created,
      });
    });
  });

  const estimate_templates = TEMPLATES.slice(0, TEMPLATE_COUNT[opts.profile]).map(
    (def, i): EstimateTemplate => {
      const changed = at(createdMs + faker.number.int({ min: 5, max: 380 }) * DAY);
      return {
        id: faker.string.uuid(),
        object: 'estimate_template',
        name: def.name,
        template_number: `T-${1001 + i}`,
        line_items: def.lines.map((line) => ({ ...line })),
        created_at: created,
        updated_at: changed,
      };
    },
  );

  const records = generateRecords({
    faker,
    profile: opts.profile,
    users,
    pipelines,
    stages,
    market,
    since: createdMs,
    until: opts.anchorMs,
  });
  return { workspace, users, pipelines, stages, estimate_templates, ...records };
}
