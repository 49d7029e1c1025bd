import { CONTACT_TYPES } from '../resources/contacts/schema';
import { FILE_CATEGORIES } from '../resources/files/schema';
import { JOB_TYPES } from '../resources/jobs/schema';
import { PAYER_TYPES, PAYMENT_METHODS, PAYMENT_TYPES } from '../resources/payments/schema';
import { APPOINTMENT_TYPES } from '../resources/tasks/schema';

// spec, Events: the 30 events and the filter keys each accepts. Where the spec leaves a filter
// list out (estimate, invoice, payment, pin, note, storm list events) DESIGN's decision holds.
// GET /events and POST /webhooks both read this one table, so they cannot disagree.

/** How a filter value is checked: stage (key or label), pipeline id, user id, or one of `values`. */
export type FilterKind = 'stage' | 'pipeline' | 'user' | 'enum';

export interface FilterDef {
  key: string;
  label: string;
  kind: FilterKind;
  values?: readonly string[];
}

/** The collection an event's record lives in. */
export type Resource =
  | 'job'
  | 'contact'
  | 'task'
  | 'estimate'
  | 'invoice'
  | 'payment'
  | 'note'
  | 'file'
  | 'pin'
  | 'storm_list';

export interface EventDef {
  event: string;
  resource: Resource;
  label: string;
  description: string;
  filters: readonly FilterDef[];
}

export const KNOCK_RESULTS = [
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
] as const;
export const PIN_TYPES = ['knock', 'inspection', 'job'] as const;

const stage: FilterDef = { key: 'stage', label: 'Stage', kind: 'stage' };
const previousStage: FilterDef = { key: 'previous_stage', label: 'Previous stage', kind: 'stage' };
const jobType: FilterDef = { key: 'job_type', label: 'Job type', kind: 'enum', values: JOB_TYPES };
const pipeline: FilterDef = { key: 'pipeline_id', label: 'Pipeline', kind: 'pipeline' };
const assignedTo: FilterDef = { key: 'assigned_to', label: 'Assigned to', kind: 'user' };
const contactType: FilterDef = {
  key: 'type',
  label: 'Contact type',
  kind: 'enum',
  values: CONTACT_TYPES,
};
const appointmentType: FilterDef = {
  key: 'appointment_type',
  label: 'Appointment type',
  kind: 'enum',
  values: APPOINTMENT_TYPES,
};
const isAppointment: FilterDef = {
  key: 'is_appointment',
  label: 'Appointments only',
  kind: 'enum',
  values: ['true'],
};
const payment: FilterDef[] = [
  { key: 'payment_type', label: 'Payment type', kind: 'enum', values: PAYMENT_TYPES },
  { key: 'payer_type', label: 'Payer', kind: 'enum', values: PAYER_TYPES },
  { key: 'payment_method', label: 'Payment method', kind: 'enum', values: PAYMENT_METHODS },
];
const pinType: FilterDef = { key: 'pin_type', label: 'Pin type', kind: 'enum', values: PIN_TYPES };
const knockResult: FilterDef = {
  key: 'knock_result',
  label: 'Knock result',
  kind: 'enum',
  values: KNOCK_RESULTS,
};
const previousKnockResult: FilterDef = {
  key: 'previous_knock_result',
  label: 'Previous knock result',
  kind: 'enum',
  values: KNOCK_RESULTS,
};
const taskFilters = [assignedTo, appointmentType, isAppointment];

const def = (
  event: string,
  resource: Resource,
  label: string,
  description: string,
  filters: readonly FilterDef[] = [],
): EventDef => ({ event, resource, label, description, filters });

export const EVENTS: readonly EventDef[] = [
  def('job.created', 'job', 'Job created', 'A job was created.', [stage, jobType, pipeline]),
  def(
    'job.updated',
    'job',
    'Job updated',
    'A job changed; changed_fields lists what. Quick edits coalesce into one delivery.',
    [jobType],
  ),
  def(
    'job.stage_changed',
    'job',
    'Job stage changed',
    'A job moved stage; previous_stage says from where.',
    [stage, previousStage, jobType, pipeline],
  ),
  def('job.assigned', 'job', 'Job assigned', 'A job has a new primary assignee.', [assignedTo]),
  def('job.deleted', 'job', 'Job deleted', 'A job was deleted (recoverable for 30 days).'),
  def('contact.created', 'contact', 'Contact created', 'A contact was added.', [contactType]),
  def(
    'contact.updated',
    'contact',
    'Contact updated',
    'A contact changed; changed_fields lists what.',
    [contactType],
  ),
  def('contact.deleted', 'contact', 'Contact deleted', 'A contact was deleted.', [contactType]),
  def('task.created', 'task', 'Task created', 'A task or appointment was created.', taskFilters),
  def(
    'task.updated',
    'task',
    'Task updated',
    'A task or appointment changed; changed_fields lists what.',
    taskFilters,
  ),
  def(
    'task.completed',
    'task',
    'Task completed',
    'A task or appointment was marked done.',
    taskFilters,
  ),
  def('task.deleted', 'task', 'Task deleted', 'A task or appointment was deleted.', taskFilters),
  def('appointment.created', 'task', 'Appointment scheduled', 'An appointment was scheduled.', [
    assignedTo,
    appointmentType,
  ]),
  def('estimate.created', 'estimate', 'Estimate created', 'An estimate was created (draft).'),
  def('estimate.sent', 'estimate', 'Estimate sent', 'An estimate was sent to the homeowner.'),
  def('estimate.viewed', 'estimate', 'Estimate viewed', 'The homeowner opened an estimate.'),
  def('estimate.signed', 'estimate', 'Estimate signed', 'The homeowner signed an estimate.'),
  def('estimate.declined', 'estimate', 'Estimate declined', 'The homeowner declined an estimate.'),
  def('invoice.created', 'invoice', 'Invoice created', 'An invoice was created (draft).'),
  def('invoice.sent', 'invoice', 'Invoice sent', 'An invoice was sent.'),
  def('invoice.paid', 'invoice', 'Invoice paid', 'An invoice was paid in full.'),
  def('invoice.overdue', 'invoice', 'Invoice overdue', 'A sent invoice passed its due date.'),
  def('invoice.voided', 'invoice', 'Invoice voided', 'An invoice was voided.'),
  def('payment.received', 'payment', 'Payment received', 'A payment was recorded.', payment),
  def('payment.refunded', 'payment', 'Payment refunded', 'A payment was refunded.', payment),
  def('note.created', 'note', 'Note created', 'A note was added to a job.'),
  def('file.created', 'file', 'File created', 'A photo or document was added to a job.', [
    { key: 'category', label: 'Category', kind: 'enum', values: FILE_CATEGORIES },
  ]),
  def('pin.created', 'pin', 'Door knock logged', 'A door knock was logged.', [
    pinType,
    knockResult,
  ]),
  def(
    'pin.result_changed',
    'pin',
    'Knock result changed',
    'The knock result of a pin changed; previous_knock_result says from what.',
    [pinType, knockResult, previousKnockResult],
  ),
  def('storm_list.ready', 'storm_list', 'Storm list ready', 'A storm list finished building.'),
];

const byName = new Map(EVENTS.map((e) => [e.event, e]));

export const eventDef = (name: string): EventDef | undefined => byName.get(name);

/** `*` subscribes to every event, including events added later. */
export const WILDCARD = '*';
