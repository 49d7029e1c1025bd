// An estimate's figures: spec, Estimate (`total` "computed as the PDF computes it; null (never 0)
// when it cannot be computed", package_totals, upgrades_total); decisions.md, Money (exact cents,
// each figure rounded once, half away from zero; a negative price is a credit) and Estimates
// (Totals: the one price, else the chosen package, else the base package, else the scope lines).
import { describe, expect, test } from 'vitest';
import {
  app,
  INSURANCE_TEMPLATE,
  newEstimate,
  newJob,
  RETAIL_TEMPLATE,
  setup,
  templateId,
} from './setup';

const line = (name: string, unit_price: number, quantity?: number) => ({
  name,
  unit_price,
  ...(quantity === undefined ? {} : { quantity }),
});

describe('the standard checklist', () => {
  test('an estimate without lines is the unpriced checklist: total null, never 0', async () => {
    const { ws, jobId } = await setup();
    const estimate = await newEstimate(ws, jobId);
    expect(estimate).toMatchObject({ total: null, package_totals: null, upgrades_total: null });
  });

  test('one price on the checklist gives total = price', async () => {
    const { ws, jobId } = await setup();
    expect((await newEstimate(ws, jobId, { price: 12_500.5 })).total).toBe(12_500.5);
  });
});

describe('line items: total is the exact sum in cents', () => {
  test('3 × 0.1 is 0.3, with no floating-point drift', async () => {
    const { ws, jobId } = await setup();
    const estimate = await newEstimate(ws, jobId, { line_items: [line('Nails', 0.1, 3)] });
    expect(estimate.total).toBe(0.3);
  });

  test('0.1 + 0.2 is 0.3', async () => {
    const { ws, jobId } = await setup();
    const estimate = await newEstimate(ws, jobId, {
      line_items: [line('Caulk', 0.1), line('Tape', 0.2)],
    });
    expect(estimate.total).toBe(0.3);
  });

  test('ten lines of 0.07 are 0.7', async () => {
    const { ws, jobId } = await setup();
    const estimate = await newEstimate(ws, jobId, {
      line_items: Array.from({ length: 10 }, (_, i) => line(`Part ${i}`, 0.07)),
    });
    expect(estimate.total).toBe(0.7);
  });

  test('quantity defaults to 1', async () => {
    const { ws, jobId } = await setup();
    const estimate = await newEstimate(ws, jobId, {
      line_items: [line('Tear-off', 1_918), line('Shingles', 295, 31)],
    });
    expect(estimate.total).toBe(1_918 + 9_145);
  });

  test('a negative unit price is a credit', async () => {
    const { ws, jobId } = await setup();
    const estimate = await newEstimate(ws, jobId, {
      line_items: [line('Roof', 9_800), line('Deductible credit', -1_000)],
    });
    expect(estimate.total).toBe(8_800);
  });

  test('a quantity of 0 adds nothing', async () => {
    const { ws, jobId } = await setup();
    const estimate = await newEstimate(ws, jobId, {
      line_items: [line('Roof', 5_000), line('Skylight (not needed)', 750, 0)],
    });
    expect(estimate.total).toBe(5_000);
  });

  test('each line is rounded once to the cent, halves away from zero', async () => {
    const { ws, jobId } = await setup();
    // 1.5 × 0.333 = 0.4995 → 0.50; -2.675 → -2.68; 28 × 68.5 = 1918 exactly.
    const estimate = await newEstimate(ws, jobId, {
      line_items: [line('a', 0.333, 1.5), line('b', -2.675), line('c', 68.5, 28)],
    });
    expect(estimate.total).toBe(1_915.82);
  });

  test('fractional quantities multiply exactly: 120 × 2.1 and 210 × 3.05', async () => {
    const { ws, jobId } = await setup();
    const estimate = await newEstimate(ws, jobId, {
      line_items: [line('Ice & water', 2.1, 120), line('Drip edge', 3.05, 210)],
    });
    expect(estimate.total).toBe(892.5);
  });

  test('lines totalling 0 give total 0 (computed), not null', async () => {
    const { ws, jobId } = await setup();
    const estimate = await newEstimate(ws, jobId, {
      line_items: [line('Inspection', 250), line('Inspection waived', -250)],
    });
    expect(estimate.total).toBe(0);
  });

  test('lines without a template give no packages and no upgrades', async () => {
    const { ws, jobId } = await setup();
    const estimate = await newEstimate(ws, jobId, { line_items: [line('Roof', 100)] });
    expect(estimate).toMatchObject({ package_totals: null, upgrades_total: null });
  });

  // decisions.md, Money: every figure in whole cents, rounded once, half away from zero; the
  // total from one price is such a figure, as an invoice's discount amount is.
  test.each([
    [1.005, 1.01],
    [1_234.565, 1_234.57],
    [99.994, 99.99],
  ])('a price of %d shows as a total of %d: rounded once to the cent', async (price, total) => {
    const { ws, jobId } = await setup();
    expect((await newEstimate(ws, jobId, { price })).total).toBe(total);
  });

  test('price replaces the sum of the lines as the total', async () => {
    const { ws, jobId } = await setup();
    const estimate = await newEstimate(ws, jobId, {
      line_items: [line('Roof', 9_800)],
      price: 9_250,
    });
    expect(estimate.total).toBe(9_250);
  });
});

describe('a copy of the retail template (good, better, best and upgrades)', () => {
  // Shared scope 24 × 65 + 24 × 35 + 640 = 3,040; packages add 26 squares of shingles at 215,
  // 275 and 390; upgrades 2,450 + 685.
  const PACKAGES = { good: 8_630, better: 10_190, best: 13_180 };

  test('package_totals price every package: shared scope plus its own lines', async () => {
    const { ws, jobId } = await setup();
    const estimate = await newEstimate(ws, jobId, {
      template_id: await templateId(ws, RETAIL_TEMPLATE),
    });
    expect(estimate.package_totals).toEqual(PACKAGES);
    expect(Object.keys(estimate.package_totals)).toEqual(['good', 'better', 'best']);
  });

  test('total is the base (first) package; the upgrades are quoted outside it', async () => {
    const { ws, jobId } = await setup();
    const estimate = await newEstimate(ws, jobId, {
      template_id: await templateId(ws, RETAIL_TEMPLATE),
    });
    expect(estimate).toMatchObject({
      document_type: 'proposal',
      total: PACKAGES.good,
      upgrades_total: 3_135,
      selected_tier: null,
    });
  });

  test('a price makes total the price; the packages are still priced', async () => {
    const { ws, jobId } = await setup();
    const estimate = await newEstimate(ws, jobId, {
      template_id: await templateId(ws, RETAIL_TEMPLATE),
      price: 11_000,
    });
    expect(estimate).toMatchObject({
      total: 11_000,
      package_totals: PACKAGES,
      upgrades_total: 3_135,
    });
  });
});

describe('a copy of the insurance template (itemized)', () => {
  test('total is the sum of its lines; no packages, no upgrades', async () => {
    const { ws, jobId } = await setup();
    const estimate = await newEstimate(ws, jobId, {
      template_id: await templateId(ws, INSURANCE_TEMPLATE),
    });
    // 28 × 68.5 + 31 × 295 + 28 × 32 + 120 × 2.1 + 210 × 3.05 + 42 × 9.75 + 4 × 48
    expect(estimate).toMatchObject({
      document_type: 'estimate',
      total: 13_453,
      package_totals: null,
      upgrades_total: null,
    });
  });
});

describe('a copy of a template with upgrades but no packages (demo profile: metal roof)', () => {
  test('total is the scope; upgrades_total the upgrades; package_totals null', async () => {
    const ws = await app().workspace({ profile: 'demo' });
    const job = await newJob(ws);
    const estimate = await newEstimate(ws, job.id, {
      template_id: await templateId(ws, 'Metal Roof Upgrade'),
    });
    // 26 × 725 + 26 × 55 + 1,850; one upgrade of 940, outside the total.
    expect(estimate).toMatchObject({
      document_type: 'proposal',
      total: 22_130,
      package_totals: null,
      upgrades_total: 940,
    });
  });
});
