import { z } from '@hono/zod-openapi';
import {
  comingIn,
  defineEvents,
  enumFilter,
  type Occurrence,
  occurrence,
  previous,
  raisedFrom,
  UPDATED,
} from '../../platform/family';
import { userFilter } from '../users/api';
import { pipelineFilter, stageFilter } from './filters';
import { JOB_TYPES } from './schema';

const stage = stageFilter('stage', 'Stage');
const jobType = enumFilter('job_type', 'Job type', JOB_TYPES);
const pipeline = pipelineFilter('pipeline_id', 'Pipeline');

// spec, Events: the five job events and the filters each takes.
export const jobEvents = defineEvents({
  resource: 'job',
  decls: [
    {
      event: 'job.created',
      label: 'Job created',
      description: 'A job was created.',
      filters: [stage, jobType, pipeline],
      about: comingIn,
    },
    {
      event: 'job.updated',
      label: 'Job updated',
      description:
        'A job changed; changed_fields lists what. Quick edits coalesce into one delivery.',
      filters: [jobType],
      extras: UPDATED,
    },
    {
      event: 'job.stage_changed',
      label: 'Job stage changed',
      description: 'A job moved stage; previous_stage says from where.',
      filters: [stage, stageFilter('previous_stage', 'Previous stage'), jobType, pipeline],
      extras: z.object({
        previous_stage: previous('The stage key the job left'),
        previous_stage_label: previous('The stage the job left, as its board names it'),
      }),
    },
    {
      event: 'job.assigned',
      label: 'Job assigned',
      description: 'A job has a new primary assignee.',
      filters: [userFilter('assigned_to', 'Assigned to', 'assigned_to_id')],
      extras: z.object({
        previous_assigned_to_id: previous('The primary assignee before; null for none'),
      }),
      about: raisedFrom((job) => ({ ...job, assigned_to_id: null })),
    },
    {
      event: 'job.deleted',
      label: 'Job deleted',
      description: 'A job was deleted (recoverable for 30 days).',
      deleted: ['job_number', 'name', 'address'],
    },
  ],
  lifecycle: { created: 'job.created', updated: 'job.updated', deleted: 'job.deleted' },
  more: (was, now) => {
    const out: Occurrence[] = [];
    if (!now) {
      return out;
    }
    if (was && (was.stage !== now.stage || was.pipeline_id !== now.pipeline_id)) {
      out.push(
        occurrence('job.stage_changed', now, {
          previous_stage: was.stage,
          previous_stage_label: was.stage_label,
        }),
      );
    }
    // decisions.md: a new primary assignee, a job made with one included; clearing the assignee
    // assigns nobody.
    const previous = was?.assigned_to_id ?? null;
    if (now.assigned_to_id !== null && previous !== now.assigned_to_id) {
      out.push(occurrence('job.assigned', now, { previous_assigned_to_id: previous }));
    }
    return out;
  },
});
