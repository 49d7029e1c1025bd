// GET /events (the event catalogue), and POST /webhooks taking what it lists. spec: Lookups
// (EventDefinition), Events › The 30 events, Filters; decisions.md, Webhook subscriptions (filter
// kinds, the filters of the events the spec leaves open) and Events.
import { describe, expect, test } from 'vitest';
import type { TestWorkspace } from '../support/harness';
import { fresh, hook, SPEC_EVENTS } from './setup';

const HOOK = hook('catalogue');

const TASK_FILTERS = ['assigned_to', 'appointment_type', 'is_appointment'];
const PAYMENT_FILTERS = ['payment_type', 'payer_type', 'payment_method'];

/** The filter keys of every event: the spec's list, and decisions.md where the spec has none. */
const FILTER_KEYS: Record<string, string[]> = {
  'job.created': ['stage', 'job_type', 'pipeline_id'],
  'job.updated': ['job_type'],
  'job.stage_changed': ['stage', 'previous_stage', 'job_type', 'pipeline_id'],
  'job.assigned': ['assigned_to'],
  'job.deleted': [],
  'contact.created': ['type'],
  'contact.updated': ['type'],
  'contact.deleted': ['type'],
  'task.created': TASK_FILTERS,
  'task.updated': TASK_FILTERS,
  'task.completed': TASK_FILTERS,
  'task.deleted': TASK_FILTERS,
  'appointment.created': ['assigned_to', 'appointment_type'],
  'estimate.created': [],
  'estimate.sent': [],
  'estimate.viewed': [],
  'estimate.signed': [],
  'estimate.declined': [],
  'invoice.created': [],
  'invoice.sent': [],
  'invoice.paid': [],
  'invoice.overdue': [],
  'invoice.voided': [],
  'payment.received': PAYMENT_FILTERS,
  'payment.refunded': PAYMENT_FILTERS,
  'note.created': [],
  'file.created': ['category'],
  'pin.created': ['pin_type', 'knock_result'],
  'pin.result_changed': ['pin_type', 'knock_result', 'previous_knock_result'],
  'storm_list.ready': [],
};

const KNOCK_RESULTS = [
  'interested',
  'not_interested',
  'contacted',
  'no_answer',
  'door_hanger',
  'follow_up',
  'appointment_scheduled',
  'dont_knock',
  'renter',
  'no_damage',
  'cash_quote',
  'lost',
];

/** spec, Filters table (and the Contact, Pin resources for "contact type", "the knock results"). */
const ENUM_VALUES: Record<string, string[]> = {
  job_type: ['insurance', 'retail'],
  type: [
    'homeowner',
    'commercial',
    'adjuster',
    'contractor',
    'subcontractor',
    'install_crew',
    'inspector',
    'mortgage_company',
    'other',
  ],
  appointment_type: ['inspection', 'adjuster_meeting', 'build_day'],
  is_appointment: ['true'],
  payment_type: ['acv', 'deductible', 'supplement', 'depreciation', 'retail', 'other'],
  payer_type: ['insurance', 'homeowner', 'mortgage_company', 'other'],
  payment_method: ['check', 'cash', 'card', 'ach', 'financing', 'other'],
  category: ['photo', 'document', 'scope', 'estimate', 'contract', 'other'],
  pin_type: ['knock', 'inspection', 'job'],
  knock_result: KNOCK_RESULTS,
  previous_knock_result: KNOCK_RESULTS,
};

/** decisions.md: the kinds are stage, pipeline, enum and user (for assigned_to). */
const KIND: Record<string, string> = {
  stage: 'stage',
  previous_stage: 'stage',
  pipeline_id: 'pipeline',
  assigned_to: 'user',
  ...Object.fromEntries(Object.keys(ENUM_VALUES).map((k) => [k, 'enum'])),
};

const RESOURCE: Record<string, string> = {
  job: 'job',
  contact: 'contact',
  task: 'task',
  appointment: 'task', // spec: appointment.created carries a Task
  estimate: 'estimate',
  invoice: 'invoice',
  payment: 'payment',
  note: 'note',
  file: 'file',
  pin: 'pin',
  storm_list: 'storm_list',
};

interface Filter {
  key: string;
  label: string;
  kind: string;
  values?: string[];
}

interface EventDefinition {
  event: string;
  resource: string;
  label: string;
  description: string;
  filters: Filter[];
}

async function catalogue(ws: TestWorkspace): Promise<Map<string, EventDefinition>> {
  const res = await ws.api.get('/events');
  expect(res.status, res.text).toBe(200);
  return new Map((res.body.data as EventDefinition[]).map((d) => [d.event, d]));
}

function defOf(defs: Map<string, EventDefinition>, event: string): EventDefinition {
  const def = defs.get(event);
  if (!def) {
    throw new Error(`GET /events does not list ${event}`);
  }
  return def;
}

const stageKeys = async (ws: TestWorkspace): Promise<string[]> =>
  (await ws.api.get('/stages')).body.data.map((s: { key: string }) => s.key);

describe('GET /events: the catalogue', () => {
  test('is a whole list of exactly the 30 events of the spec', async () => {
    const { ws } = await fresh();
    const res = await ws.api.get('/events');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
    const names: string[] = res.body.data.map((d: EventDefinition) => d.event);
    expect(names).toHaveLength(30);
    expect(new Set(names).size).toBe(30);
    expect([...names].sort()).toEqual([...SPEC_EVENTS].sort());
  });

  test('the read-only key sees the same catalogue', async () => {
    const { ws } = await fresh();
    const a = await ws.api.get('/events');
    const b = await ws.read.get('/events');
    expect(b.status).toBe(200);
    expect(b.body).toEqual(a.body);
  });

  test('every event has resource, label, description and filters', async () => {
    const { ws } = await fresh();
    for (const def of (await catalogue(ws)).values()) {
      expect(Object.keys(def).sort()).toEqual(
        ['event', 'resource', 'label', 'description', 'filters'].sort(),
      );
      expect(def.resource, def.event).toBe(RESOURCE[def.event.split('.')[0] as string]);
      expect(def.label.trim(), def.event).not.toBe('');
      expect(def.description.trim(), def.event).not.toBe('');
      expect(Array.isArray(def.filters), def.event).toBe(true);
      for (const f of def.filters) {
        expect(typeof f.label, `${def.event} ${f.key}`).toBe('string');
        expect(f.label.trim(), `${def.event} ${f.key}`).not.toBe('');
      }
    }
  });

  test.each(SPEC_EVENTS)(
    '%s lists exactly the filter keys of the spec and decisions.md',
    async (event) => {
      const { ws } = await fresh('empty');
      const def = defOf(await catalogue(ws), event);
      const keys = def.filters.map((f) => f.key);
      expect(new Set(keys).size).toBe(keys.length);
      expect([...keys].sort()).toEqual([...(FILTER_KEYS[event] ?? ['?'])].sort());
    },
  );

  test('every filter has its kind: stage, enum, pipeline or user', async () => {
    const { ws } = await fresh();
    for (const def of (await catalogue(ws)).values()) {
      for (const f of def.filters) {
        expect(f.kind, `${def.event} ${f.key}`).toBe(KIND[f.key]);
      }
    }
  });

  test('enum filters list their values', async () => {
    const { ws } = await fresh();
    let seen = 0;
    for (const def of (await catalogue(ws)).values()) {
      for (const f of def.filters.filter((x) => x.kind === 'enum')) {
        expect([...(f.values ?? [])].sort(), `${def.event} ${f.key}`).toEqual(
          [...(ENUM_VALUES[f.key] ?? ['?'])].sort(),
        );
        seen++;
      }
    }
    expect(seen).toBeGreaterThan(20);
  });

  test("stage filters list the workspace's stage keys; pipeline and user filters list none", async () => {
    const { ws } = await fresh();
    const keys = await stageKeys(ws);
    expect(keys.length).toBeGreaterThan(10);
    for (const def of (await catalogue(ws)).values()) {
      for (const f of def.filters) {
        if (f.kind === 'stage') {
          expect(f.values, `${def.event} ${f.key}`).toEqual(keys);
        } else if (f.kind === 'pipeline' || f.kind === 'user') {
          expect(f, `${def.event} ${f.key}`).not.toHaveProperty('values');
        }
      }
    }
  });
});

describe('GET /events and POST /webhooks agree', () => {
  /** Every value GET /events (or the lookups it points at) offers for a filter. */
  async function valuesFor(ws: TestWorkspace, f: Filter): Promise<string[]> {
    switch (f.kind) {
      case 'pipeline':
        return (await ws.api.get('/pipelines')).body.data.map((p: { id: string }) => p.id);
      case 'user':
        return (await ws.api.get('/users')).body.data.map((u: { id: string }) => u.id);
      default:
        return f.values ?? [];
    }
  }

  test.each(SPEC_EVENTS)(
    '%s: every filter key listed accepts every value offered, stored as sent',
    async (event) => {
      const { ws } = await fresh();
      const def = defOf(await catalogue(ws), event);
      for (const f of def.filters) {
        const values = await valuesFor(ws, f);
        expect(values.length, `${event} ${f.key}`).toBeGreaterThan(0);
        for (const value of values) {
          const res = await ws.api.post('/webhooks', {
            event,
            target_url: HOOK,
            filters: { [f.key]: value },
          });
          expect(res.status, `${event} ${f.key}=${value}: ${res.text}`).toBe(201);
          expect(res.body.filters).toEqual({ [f.key]: value });
        }
      }
    },
  );

  test.each(SPEC_EVENTS)(
    '%s: a filter key it does not list is 400 filters.<key>',
    async (event) => {
      const { ws } = await fresh('empty');
      const defs = await catalogue(ws);
      const own = new Set(defOf(defs, event).filters.map((f) => f.key));
      // A valid value for each key some event takes (so only the key can be wrong).
      const others = new Map<string, string>();
      for (const def of defs.values()) {
        for (const f of def.filters) {
          if (!own.has(f.key) && f.kind !== 'user' && f.kind !== 'pipeline') {
            others.set(f.key, f.values?.[0] ?? '');
          }
        }
      }
      others.set('pipeline_id', (await ws.api.get('/pipelines')).body.data[0].id);
      others.set('assigned_to', (await ws.api.get('/users')).body.data[0].id);
      for (const key of own) {
        others.delete(key);
      }
      expect(others.size).toBeGreaterThan(5);
      for (const [key, value] of others) {
        const res = await ws.api.post('/webhooks', {
          event,
          target_url: HOOK,
          filters: { [key]: value },
        });
        expect(res.status, `${event} ${key}`).toBe(400);
        expect(res.body.error).toMatchObject({ code: 'invalid_request', field: `filters.${key}` });
      }
      expect((await ws.api.get('/webhooks')).body.data).toEqual([]);
    },
  );

  test('a value outside what GET /events lists is 400 filters.<key> for every enum filter', async () => {
    const { ws } = await fresh('empty');
    for (const def of (await catalogue(ws)).values()) {
      for (const f of def.filters.filter((x) => x.kind === 'enum' || x.kind === 'stage')) {
        const res = await ws.api.post('/webhooks', {
          event: def.event,
          target_url: HOOK,
          filters: { [f.key]: 'surely_not_a_value' },
        });
        expect(res.status, `${def.event} ${f.key}`).toBe(400);
        expect(res.body.error).toMatchObject({
          code: 'invalid_request',
          field: `filters.${f.key}`,
        });
      }
    }
  });
});
