import { DAY, type Profile, type SeedStep } from '../../platform/family';
import type { Line } from '../common/line-items';
import type { EstimateTemplate, Package, Upgrade } from './schema';

interface TemplateDef {
  name: string;
  document_type: 'proposal' | 'estimate';
  /** Segments joined by " · "; one whose smart field the job lacks is left out. */
  title: string;
  lines: Line[];
  packages?: Package[];
  upgrades?: Upgrade[];
}

const shingles = (name: string, unit_price: number): Line => ({
  name: `${name} (per square)`,
  quantity: 26,
  unit_price,
  taxable: true,
});

export const TEMPLATES: TemplateDef[] = [
  {
    name: 'Insurance Roof Replacement - Architectural Shingles',
    document_type: 'estimate',
    title: 'Roof replacement · {homeowner_name} · {address} · {carrier} claim {claim_number}',
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
    document_type: 'proposal',
    title: 'Roof replacement proposal · {homeowner_name} · {address}',
    packages: [
      { name: 'good', lines: [shingles('25-year 3-tab shingles', 215)] },
      { name: 'better', lines: [shingles('30-year architectural shingles', 275)] },
      { name: 'best', lines: [shingles('50-year designer shingles', 390)] },
    ],
    upgrades: [
      { name: 'Seamless gutters with guards', price: 2450 },
      { name: 'Solar attic fan', price: 685 },
    ],
    lines: [
      {
        name: 'Remove existing roofing (per square)',
        quantity: 24,
        unit_price: 65,
        taxable: false,
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
    document_type: 'estimate',
    title: 'Gutter replacement · {homeowner_name} · {address}',
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
    document_type: 'estimate',
    title: 'Siding repair · {homeowner_name} · {address} · {carrier} claim {claim_number}',
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
    document_type: 'proposal',
    title: 'Metal roof proposal · {homeowner_name} · {address}',
    upgrades: [{ name: 'Snow guards', price: 940 }],
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

/** Templates each profile carries (the first N above). */
const TEMPLATE_COUNT: Record<Profile, number> = { empty: 2, small: 3, demo: 5, large: 5 };

export const templateSeed: SeedStep = {
  workspace(s) {
    const created = new Date(s.since).toISOString();
    TEMPLATES.slice(0, TEMPLATE_COUNT[s.profile]).forEach((def, i) => {
      const changed = new Date(s.since + s.faker.number.int({ min: 5, max: 380 }) * DAY);
      s.add('estimate_templates', {
        id: s.faker.string.uuid(),
        object: 'estimate_template',
        name: def.name,
        template_number: `T-${1001 + i}`,
        document_type: def.document_type,
        title: def.title,
        line_items: def.lines.map((line) => ({ ...line })),
        packages: (def.packages ?? []).map((p) => ({
          ...p,
          lines: p.lines.map((l) => ({ ...l })),
        })),
        upgrades: (def.upgrades ?? []).map((u) => ({ ...u })),
        created_at: created,
        updated_at: changed.toISOString(),
      } satisfies EstimateTemplate);
    });
  },
};
