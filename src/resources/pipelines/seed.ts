import type { SeedStep } from '../../platform/family';
import type { Pipeline, Stage } from './schema';

interface StageDef {
  key: string;
  label: string;
  is_completed?: true;
  is_lost?: true;
}

// decisions.md: stage keys are unique across a workspace (retail ones carry a `retail_`
// prefix), so a key names one column; labels may repeat across boards.
export const PIPELINES: { name: string; stages: StageDef[] }[] = [
  {
    name: 'Insurance Restoration',
    stages: [
      { key: 'lead', label: 'New Lead' },
      { key: 'inspection_scheduled', label: 'Inspection Scheduled' },
      { key: 'inspected', label: 'Inspected' },
      { key: 'claim_filed', label: 'Claim Filed' },
      { key: 'adjuster_meeting', label: 'Adjuster Meeting' },
      { key: 'approved', label: 'Approved' },
      { key: 'contract_signed', label: 'Contract Signed' },
      { key: 'materials_ordered', label: 'Materials Ordered' },
      { key: 'production_scheduled', label: 'Production Scheduled' },
      { key: 'installed', label: 'Installed' },
      { key: 'final_invoice', label: 'Final Invoice' },
      { key: 'completed', label: 'Completed', is_completed: true },
      { key: 'lost', label: 'Lost', is_lost: true },
    ],
  },
  {
    name: 'Retail',
    stages: [
      { key: 'retail_lead', label: 'New Lead' },
      { key: 'retail_estimate_sent', label: 'Estimate Sent' },
      { key: 'retail_contract_signed', label: 'Contract Signed' },
      { key: 'retail_scheduled', label: 'Scheduled' },
      { key: 'retail_installed', label: 'Installed' },
      { key: 'retail_completed', label: 'Completed', is_completed: true },
      { key: 'retail_lost', label: 'Lost', is_lost: true },
    ],
  },
];

/** How often a job sits in each column; every column gets some. */
export const STAGE_WEIGHTS: Record<string, number> = {
  lead: 12,
  inspection_scheduled: 10,
  inspected: 9,
  claim_filed: 9,
  adjuster_meeting: 8,
  approved: 8,
  contract_signed: 7,
  materials_ordered: 5,
  production_scheduled: 5,
  installed: 5,
  final_invoice: 5,
  completed: 12,
  lost: 5,
  retail_lead: 10,
  retail_estimate_sent: 9,
  retail_contract_signed: 7,
  retail_scheduled: 6,
  retail_installed: 5,
  retail_completed: 10,
  retail_lost: 4,
};

/** The appointment a job in each open column is waiting for. */
export const APPOINTMENT_FOR_STAGE: Record<
  string,
  'inspection' | 'adjuster_meeting' | 'build_day'
> = {
  lead: 'inspection',
  inspection_scheduled: 'inspection',
  inspected: 'inspection',
  claim_filed: 'adjuster_meeting',
  adjuster_meeting: 'adjuster_meeting',
  approved: 'adjuster_meeting',
  contract_signed: 'build_day',
  materials_ordered: 'build_day',
  production_scheduled: 'build_day',
  installed: 'build_day',
  final_invoice: 'build_day',
  retail_lead: 'inspection',
  retail_estimate_sent: 'inspection',
  retail_contract_signed: 'build_day',
  retail_scheduled: 'build_day',
  retail_installed: 'build_day',
};

/** The boards every workspace starts with: insurance restoration (the default) and retail. */
export const pipelineSeed: SeedStep = {
  workspace(s) {
    const created = new Date(s.since).toISOString();
    PIPELINES.forEach((def, order) => {
      const pipeline: Pipeline = {
        id: s.faker.string.uuid(),
        object: 'pipeline',
        name: def.name,
        is_default: order === 0,
        order,
        created_at: created,
        updated_at: created,
      };
      s.add('pipelines', pipeline);
      def.stages.forEach((stage, stageOrder) => {
        s.add('stages', {
          id: s.faker.string.uuid(),
          object: 'pipeline_stage',
          pipeline_id: pipeline.id,
          key: stage.key,
          label: stage.label,
          order: stageOrder,
          is_completed: stage.is_completed ?? false,
          is_lost: stage.is_lost ?? false,
          created_at: created,
          updated_at: created,
        } satisfies Stage);
      });
    });
  },
};
