// Jobs, contacts, tasks, appointments and notes of a seeded workspace: coherent with each other
// (a homeowner lives at the job's address, an adjuster works for the job's carrier, appointments
// fit the job's stage) and spread over both boards.
import type { Faker } from '@faker-js/faker';
import zipcodes from 'zipcodes';
import type { Contact } from '../resources/contacts/schema';
import type { Counter, Job, TimelineEntry } from '../resources/jobs/schema';
import type { Note } from '../resources/notes/schema';
import type { Pipeline, Stage } from '../resources/pipelines/schema';
import type { Task } from '../resources/tasks/schema';
import type { User } from '../resources/users/schema';
import type { Profile } from './profiles';
import { RECORDS } from './profiles';
import {
  ADJUSTER_TYPES,
  APPOINTMENT_FOR_STAGE,
  CARRIERS,
  DAMAGE_TYPES,
  LEAD_SOURCES,
  LOST_REASONS,
  MORTGAGE_COMPANIES,
  NOTE_LINES,
  STAGE_WEIGHTS,
  TAGS,
  TASK_TITLES,
} from './vocabulary';

export interface RecordsInput {
  faker: Faker;
  profile: Profile;
  users: User[];
  pipelines: Pipeline[];
  stages: Stage[];
  market: { postal_code: string; city: string; state: string };
  /** The workspace's first day and the instant every timestamp falls before (ms). */
  since: number;
  until: number;
}

export interface GeneratedRecords {
  contacts: Contact[];
  jobs: Job[];
  tasks: Task[];
  notes: Note[];
  timeline: TimelineEntry[];
  counters: Counter[];
}

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

export function generateRecords(input: RecordsInput): GeneratedRecords {
  const plan = RECORDS[input.profile];
  const out: GeneratedRecords = {
    contacts: [],
    jobs: [],
    tasks: [],
    notes: [],
    timeline: [],
    counters: [],
  };
  if (plan.jobs === 0) {
    return out;
  }
  const gen = new Generator(input, out);
  // Whatever the seed, the first job of each board sits in a column that books an appointment and
  // carries one, with a note: even `small` shows both boards, appointments, tasks and notes.
  const showcase = new Set<string>();
  for (let i = 0; i < plan.jobs; i++) {
    const board = i < input.pipelines.length ? i : undefined;
    const job = gen.job(board);
    if (board !== undefined) {
      showcase.add(job.id);
    }
  }
  for (let i = 0; i < plan.looseContacts; i++) {
    gen.looseContact();
  }
  gen.numberJobs();
  for (const job of out.jobs) {
    const shown = showcase.has(job.id);
    gen.notesFor(job, shown ? Math.max(plan.notesPer, 1) : plan.notesPer);
    gen.tasksFor(job, plan.tasksPer, shown);
  }
  return out;
}

class Generator {
  readonly #in: RecordsInput;
  readonly #out: GeneratedRecords;
  readonly #f: Faker;
  readonly #zips: string[];
  readonly #adjusters = new Map<string, Contact[]>();
  readonly #reps: User[];
  readonly #managers: User[];

  constructor(input: RecordsInput, out: GeneratedRecords) {
    this.#in = input;
    this.#out = out;
    this.#f = input.faker;
    const near = zipcodes.radius(input.market.postal_code, 40) as string[];
    this.#zips = near.length > 0 ? near.sort() : [input.market.postal_code];
    const byRole = (...roles: User['role'][]) => input.users.filter((u) => roles.includes(u.role));
    this.#reps = byRole('sales_rep').length > 0 ? byRole('sales_rep') : byRole('owner', 'admin');
    this.#managers = byRole('project_manager', 'manager');
  }

  /** A moment between `from` and the seed's horizon, leaning towards recent. */
  #when(from: number, to = this.#in.until - DAY / 24): number {
    const span = Math.max(to - from, 1);
    return Math.floor(from + span * Math.sqrt(this.#f.number.float({ min: 0, max: 1 })));
  }

  #place() {
    const zip = this.#f.helpers.arrayElement(this.#zips);
    const found = zipcodes.lookup(zip);
    return {
      address: this.#f.location.streetAddress(),
      city: found?.city ?? this.#in.market.city,
      state: found?.state ?? this.#in.market.state,
      postal_code: zip,
    };
  }

  #contact(fields: Partial<Contact> & Pick<Contact, 'type'>, at: number): Contact {
    const first = this.#f.person.firstName();
    const last = this.#f.person.lastName();
    const contact: Contact = {
      id: this.#f.string.uuid(),
      object: 'contact',
      first_name: first,
      last_name: last,
      email: this.#f.internet
        .email({ firstName: first, lastName: last, provider: 'example.com' })
        .toLowerCase(),
      phone: this.#f.phone.number({ style: 'national' }),
      company: null,
      trades: [],
      address: null,
      city: null,
      state: null,
      postal_code: null,
      notes: null,
      claim_number: null,
      adjuster_type: null,
      adjuster_extension: null,
      assigned_to_id: null,
      created_at: iso(at),
      updated_at: iso(at),
      deleted_at: null,
      ...fields,
    };
    this.#out.contacts.push(contact);
    return contact;
  }

  /** Adjusters are shared: each carrier sends a few to many jobs. */
  #adjuster(carrier: string, at: number): Contact {
    const pool = this.#adjusters.get(carrier) ?? [];
    if (pool.length < 3 || this.#f.number.int({ min: 0, max: 9 }) === 0) {
      pool.push(
        this.#contact(
          {
            type: 'adjuster',
            company: carrier,
            adjuster_type: this.#f.helpers.arrayElement(ADJUSTER_TYPES),
            adjuster_extension: String(this.#f.number.int({ min: 100, max: 9999 })),
          },
          at,
        ),
      );
      this.#adjusters.set(carrier, pool);
    }
    return this.#f.helpers.arrayElement(pool);
  }

  looseContact(): void {
    const type = this.#f.helpers.arrayElement([
      'subcontractor',
      'install_crew',
      'inspector',
      'mortgage_company',
      'contractor',
    ] as const);
    const company =
      type === 'mortgage_company'
        ? this.#f.helpers.arrayElement(MORTGAGE_COMPANIES)
        : `${this.#f.person.lastName()} ${type === 'install_crew' ? 'Crew' : 'Services'}`;
    this.#contact(
      {
        type,
        company,
        trades:
          type === 'subcontractor'
            ? [this.#f.helpers.arrayElement(['gutters', 'siding', 'windows', 'paint'])]
            : [],
      },
      this.#when(this.#in.since),
    );
  }

  /**
   * One job, with its homeowner (and adjuster). `board` (0 insurance, 1 retail) places it on
   * that board in a column that books appointments; otherwise both are drawn.
   */
  job(board?: number): Job {
    const f = this.#f;
    const drawn = f.number.int({ min: 0, max: 3 }) === 0 ? 1 : 0;
    const retail = (board ?? drawn) === 1;
    const pipeline = this.#in.pipelines[retail ? 1 : 0] ?? this.#in.pipelines[0];
    const stages = this.#in.stages.filter((s) => s.pipeline_id === pipeline?.id);
    const bookable = stages.filter((s) => APPOINTMENT_FOR_STAGE[s.key] !== undefined);
    const stage = f.helpers.weightedArrayElement(
      (board === undefined || bookable.length === 0 ? stages : bookable).map((s) => ({
        weight: STAGE_WEIGHTS[s.key] ?? 1,
        value: s,
      })),
    );
    const progress = stages.indexOf(stage) / Math.max(stages.length - 1, 1);
    const created = this.#when(this.#in.since + 30 * DAY, this.#in.until - 2 * DAY);
    const entered = this.#when(created);
    const place = this.#place();
    const homeowner = this.#contact({ type: 'homeowner', ...place }, created);
    const carrier = f.helpers.arrayElement(CARRIERS);
    const claimed = !retail && progress >= 0.25;
    const adjuster = claimed && !stage.is_lost ? this.#adjuster(carrier.name, created) : null;
    const rep = f.helpers.arrayElement(this.#reps);
    const manager =
      progress >= 0.5 && this.#managers.length > 0 ? f.helpers.arrayElement(this.#managers) : null;
    const rcv = claimed
      ? f.number.int({ min: 8_000, max: 42_000 }) + f.number.int({ min: 0, max: 99 }) / 100
      : null;
    const contract = retail && progress >= 0.3 ? f.number.int({ min: 6_000, max: 28_000 }) : null;
    const at = (s: Stage, flag: 'is_completed' | 'is_lost') => (s[flag] ? iso(entered) : null);
    const job: Job = {
      id: f.string.uuid(),
      object: 'job',
      job_number: '',
      name: `${homeowner.last_name} ${retail ? 'Retail' : 'Roof'}${f.number.int({ min: 0, max: 4 }) === 0 ? ' + Gutters' : ''}`,
      job_type: retail ? 'retail' : 'insurance',
      stage_id: stage.id,
      stage_entered_at: iso(entered),
      ...place,
      county: null,
      homeowner_id: homeowner.id,
      adjuster_id: adjuster?.id ?? null,
      secondary_contact_ids:
        f.number.int({ min: 0, max: 9 }) === 0
          ? [this.#contact({ type: 'homeowner', ...place }, created).id]
          : [],
      secondary_adjuster_ids: [],
      assigned_to_id: rep?.id ?? null,
      assignee_ids: [rep?.id, manager?.id].filter((id): id is string => id !== undefined),
      insurance_company: retail ? null : carrier.name,
      claim_number: claimed ? f.helpers.replaceSymbols(carrier.claim) : null,
      policy_number: claimed ? f.helpers.replaceSymbols(carrier.policy) : null,
      date_of_loss: retail
        ? null
        : iso(created - f.number.int({ min: 3, max: 60 }) * DAY).slice(0, 10),
      damage_types: retail ? [] : f.helpers.arrayElements(DAMAGE_TYPES, { min: 1, max: 2 }),
      tags: f.helpers.arrayElements(TAGS, { min: 0, max: 2 }),
      lead_source: f.helpers.arrayElement(LEAD_SOURCES),
      priority: f.helpers.arrayElement([
        'low',
        'normal',
        'normal',
        'normal',
        'high',
        'urgent',
      ] as const),
      mortgage_company:
        claimed && f.number.int({ min: 0, max: 2 }) === 0
          ? f.helpers.arrayElement(MORTGAGE_COMPANIES)
          : null,
      financing_method:
        retail && contract !== null
          ? f.helpers.arrayElement(['cash', 'check', 'credit_card', 'financing'] as const)
          : null,
      rcv_amount: rcv,
      acv_amount:
        rcv === null
          ? null
          : Math.round(rcv * f.number.float({ min: 0.68, max: 0.86 }) * 100) / 100,
      deductible: claimed ? f.helpers.arrayElement([500, 1000, 1000, 1500, 2000, 2500]) : null,
      supplements_amount:
        claimed && progress >= 0.5 ? f.number.int({ min: 400, max: 4_500 }) : null,
      estimated_amount: retail || !claimed ? f.number.int({ min: 7_000, max: 30_000 }) : null,
      final_amount: contract,
      contract_date: progress >= 0.5 && !stage.is_lost ? iso(entered - 5 * DAY).slice(0, 10) : null,
      installation_date: progress >= 0.75 && !stage.is_lost ? iso(entered).slice(0, 10) : null,
      archived: (stage.is_completed || stage.is_lost) && f.number.int({ min: 0, max: 9 }) === 0,
      completed_at: at(stage, 'is_completed'),
      lost_at: at(stage, 'is_lost'),
      lost_reason: stage.is_lost ? f.helpers.arrayElement(LOST_REASONS) : null,
      portal_token: f.string.alphanumeric(24),
      created_at: iso(created),
      updated_at: iso(entered),
      deleted_at: null,
    };
    this.#out.jobs.push(job);
    if (stages.indexOf(stage) > 0) {
      this.#out.timeline.push({
        id: f.string.uuid(),
        object: 'timeline_entry',
        job_id: job.id,
        kind: 'stage_changed',
        from_stage_id: stages[stages.indexOf(stage) - 1]?.id ?? null,
        to_stage_id: stage.id,
        created_at: iso(entered),
      });
    }
    return job;
  }

  /** Job numbers follow the order jobs were made in, as the app numbers them. */
  numberJobs(): void {
    this.#out.jobs.sort((a, b) =>
      a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0,
    );
    this.#out.jobs.forEach((job, i) => {
      job.job_number = `J-${1001 + i}`;
    });
    this.#out.counters.push({ id: 'job_number', value: 1000 + this.#out.jobs.length });
  }

  #count(mean: number): number {
    const whole = Math.floor(mean);
    return whole + (this.#f.number.float({ min: 0, max: 1 }) < mean - whole ? 1 : 0);
  }

  notesFor(job: Job, mean: number): void {
    for (let i = this.#count(mean); i > 0; i--) {
      const at = iso(this.#when(Date.parse(job.created_at)));
      this.#out.notes.push({
        id: this.#f.string.uuid(),
        object: 'note',
        job_id: job.id,
        content: this.#f.helpers.arrayElement(NOTE_LINES),
        author_id: job.assigned_to_id,
        created_at: at,
        updated_at: at,
      });
    }
  }

  /** A job's tasks; `booked`: at least one, and an appointment when its column books one. */
  tasksFor(job: Job, mean: number, booked = false): void {
    const f = this.#f;
    const stage = this.#in.stages.find((s) => s.id === job.stage_id);
    const appointment = stage && APPOINTMENT_FOR_STAGE[stage.key];
    const count = this.#count(mean);
    for (let i = booked ? Math.max(count, 1) : count; i > 0; i--) {
      const drawn = f.number.int({ min: 0, max: 2 }) === 0;
      const isAppointment = appointment !== undefined && (drawn || (booked && i === 1));
      const dueMs = this.#in.until + f.number.int({ min: -14, max: 21 }) * DAY;
      const done = dueMs < this.#in.until && f.number.int({ min: 0, max: 9 }) < 7;
      const created = this.#when(Date.parse(job.created_at));
      // Done an hour after it was due, but never before it was made nor after the horizon; the
      // completion is the task's last change (created_at <= completed_at <= updated_at).
      const completed = Math.min(Math.max(dueMs + 3_600_000, created), this.#in.until - 1);
      const day = iso(dueMs).slice(0, 10);
      const hour = String(f.number.int({ min: 8, max: 16 })).padStart(2, '0');
      this.#out.tasks.push({
        id: f.string.uuid(),
        object: 'task',
        title: isAppointment
          ? `${appointment === 'inspection' ? 'Inspection' : appointment === 'adjuster_meeting' ? 'Adjuster meeting' : 'Build day'} - ${job.name}`
          : f.helpers.arrayElement(TASK_TITLES),
        description: null,
        due_date: `${day}T${hour}:${f.helpers.arrayElement(['00', '30'])}:00`,
        end_date:
          isAppointment && appointment === 'build_day' && f.number.int({ min: 0, max: 2 }) === 0
            ? iso(dueMs + DAY).slice(0, 10)
            : null,
        duration_minutes: isAppointment ? f.helpers.arrayElement([30, 60, 90, 480]) : null,
        priority: f.helpers.arrayElement(['low', 'normal', 'high'] as const),
        completed: done,
        completed_at: done ? iso(completed) : null,
        appointment_type: isAppointment ? (appointment ?? null) : null,
        outcome: isAppointment && done ? 'completed' : null,
        customer_reminder: isAppointment
          ? f.helpers.arrayElement(['none', 'sms', 'email', 'both'] as const)
          : null,
        reminder_minutes: isAppointment ? 60 : null,
        job_id: job.id,
        contact_id: isAppointment ? job.homeowner_id : null,
        assigned_to_id: job.assigned_to_id,
        created_at: iso(created),
        updated_at: iso(done ? completed : created),
      });
    }
  }
}
