// Words a storm-restoration contractor's workspace is made of.

/** Markets in the hail belt, by a ZIP at their centre (zipcodes fills city, state, position). */
export const MARKETS = [
  { zip: '75201', timezone: 'America/Chicago' }, // Dallas
  { zip: '76102', timezone: 'America/Chicago' }, // Fort Worth
  { zip: '73102', timezone: 'America/Chicago' }, // Oklahoma City
  { zip: '74103', timezone: 'America/Chicago' }, // Tulsa
  { zip: '67202', timezone: 'America/Chicago' }, // Wichita
  { zip: '68102', timezone: 'America/Chicago' }, // Omaha
  { zip: '80202', timezone: 'America/Denver' }, // Denver
  { zip: '80903', timezone: 'America/Denver' }, // Colorado Springs
  { zip: '78205', timezone: 'America/Chicago' }, // San Antonio
  { zip: '55401', timezone: 'America/Chicago' }, // Minneapolis
  { zip: '37203', timezone: 'America/Chicago' }, // Nashville
  { zip: '63101', timezone: 'America/Chicago' }, // St. Louis
] as const;

export const COMPANY_LEADS = [
  'Summit',
  'Lone Star',
  'Heartland',
  'Prairie',
  'Front Range',
  'Red River',
  'Ironclad',
  'Keystone',
  'Pinnacle',
  'Cornerstone',
  'Blue Sky',
  'Trailhead',
  'Stormline',
  'High Plains',
  'Liberty',
  'Patriot',
  'Anchor',
  'Northstar',
  'Granite',
  'Redline',
] as const;

export const COMPANY_TRADES = [
  'Roofing & Restoration',
  'Roofing',
  'Exteriors',
  'Storm Restoration',
  'Roofing & Siding',
  'Construction',
  'Restoration Group',
  'Roofing Co.',
] as const;

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

interface LineDef {
  name: string;
  quantity: number;
  unit_price: number;
  taxable: boolean;
}

export const TEMPLATES: { name: string; lines: LineDef[] }[] = [
  {
    name: 'Insurance Roof Replacement - Architectural Shingles',
    lines: [
      {
        name: 'Tear off, haul and dispose of comp. shingles (per square)',
        quantity: 28,
        unit_price: 68.5,
        taxable: false,
      },
      {
        name: 'Laminated architectural shingles (per square)',
        quantity: 31,
        unit_price: 295,
        taxable: true,
      },
      { name: 'Synthetic underlayment (per square)', quantity: 28, unit_price: 32, taxable: true },
      { name: 'Ice & water shield (linear ft)', quantity: 120, unit_price: 2.1, taxable: true },
      { name: 'Drip edge (linear ft)', quantity: 210, unit_price: 3.05, taxable: true },
      { name: 'Ridge vent (linear ft)', quantity: 42, unit_price: 9.75, taxable: true },
      { name: 'Pipe jack flashing', quantity: 4, unit_price: 48, taxable: true },
    ],
  },
  {
    name: 'Retail Roof Replacement - Standard',
    lines: [
      {
        name: 'Remove existing roofing (per square)',
        quantity: 24,
        unit_price: 65,
        taxable: false,
      },
      {
        name: '30-year architectural shingles (per square)',
        quantity: 26,
        unit_price: 275,
        taxable: true,
      },
      {
        name: 'Underlayment and starter strip (per square)',
        quantity: 24,
        unit_price: 35,
        taxable: true,
      },
      { name: 'Ridge cap and vents', quantity: 1, unit_price: 640, taxable: true },
    ],
  },
  {
    name: 'Seamless Gutter Replacement',
    lines: [
      {
        name: '6" seamless aluminum gutter (linear ft)',
        quantity: 160,
        unit_price: 11.5,
        taxable: true,
      },
      { name: 'Downspouts (each)', quantity: 6, unit_price: 95, taxable: true },
      { name: 'Remove and dispose of old gutters', quantity: 1, unit_price: 250, taxable: false },
    ],
  },
  {
    name: 'Siding Repair - Hail Damage',
    lines: [
      {
        name: 'Vinyl siding replacement (per square)',
        quantity: 8,
        unit_price: 390,
        taxable: true,
      },
      { name: 'House wrap (per square)', quantity: 8, unit_price: 28, taxable: true },
      { name: 'Detach and reset fixtures', quantity: 1, unit_price: 180, taxable: false },
    ],
  },
  {
    name: 'Metal Roof Upgrade',
    lines: [
      {
        name: 'Standing seam metal panels (per square)',
        quantity: 26,
        unit_price: 725,
        taxable: true,
      },
      { name: 'High-temp underlayment (per square)', quantity: 26, unit_price: 55, taxable: true },
      { name: 'Trim and flashing package', quantity: 1, unit_price: 1850, taxable: true },
    ],
  },
];

/** Carriers with the shape of their claim numbers (# a digit, A a letter). */
export const CARRIERS = [
  { name: 'State Farm', claim: '##-####-###', policy: '###-####-##' },
  { name: 'Allstate', claim: '0#########', policy: '9#########' },
  { name: 'USAA', claim: '###########-###', policy: '#######-##' },
  { name: 'Farmers Insurance', claim: '#########-#', policy: '9########' },
  { name: 'Liberty Mutual', claim: 'LM-########', policy: 'H##-###-######-##' },
  { name: 'Travelers', claim: 'AAA####', policy: '###-###-###-###' },
  { name: 'Nationwide', claim: '##-######-##', policy: '##-HO-######' },
  { name: 'American Family', claim: '##-###-######', policy: '##-A###-##' },
  { name: 'Progressive', claim: '##-#######', policy: '########' },
  { name: 'Auto-Owners', claim: '###-####-####', policy: '##-###-###-##' },
] as const;

export const DAMAGE_TYPES = ['hail', 'wind', 'tree impact', 'water', 'ice dam'] as const;

export const LEAD_SOURCES = [
  'Door knock',
  'Referral',
  'Storm list',
  'Website',
  'Google',
  'Facebook',
  'Yard sign',
  'Repeat customer',
] as const;

export const TAGS = [
  'hail-2026',
  'gutters',
  'siding',
  'supplement',
  'priority',
  'HOA',
  'solar',
  'metal',
] as const;

export const LOST_REASONS = [
  'Claim denied',
  'Went with another contractor',
  'Homeowner unresponsive',
  'Price too high',
  'Below deductible',
] as const;

export const MORTGAGE_COMPANIES = [
  'Wells Fargo Home Mortgage',
  'Rocket Mortgage',
  'Chase',
  'Mr. Cooper',
  'PennyMac',
] as const;

export const ADJUSTER_TYPES = ['field', 'desk', 'independent'] as const;

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

export const NOTE_LINES = [
  'Met homeowner on site. Hail hits on the north and west slopes, soft metals dented.',
  'Left a door hanger; no answer. Will come back Saturday morning.',
  'Homeowner filed the claim by phone; waiting on the adjuster assignment.',
  'Adjuster meeting went well: full roof approval, gutters on the front elevation.',
  'Sent the supplement for ice and water shield and drip edge.',
  'Materials ordered: architectural shingles, weathered wood color.',
  'Crew scheduled; dumpster drop the day before.',
  'Install complete. Cleaned up with a magnet sweep; homeowner happy.',
  'Depreciation released after the completion certificate.',
  'Homeowner asked about financing for the retail upgrade to metal.',
  'Photos uploaded from the inspection: 8 hits per test square.',
  'Called the mortgage company about endorsing the insurance check.',
] as const;

export const TASK_TITLES = [
  'Call homeowner about the claim number',
  'Upload inspection photos',
  'Send the supplement to the carrier',
  'Collect the deductible',
  'Order materials',
  'Confirm the build date with the crew',
  'Follow up on the depreciation check',
  'Get the mortgage company to endorse the check',
  'Send the final invoice',
  'Ask for a review',
] as const;

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
