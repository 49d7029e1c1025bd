import { dollars, toCents } from '../common/cents';
import { linesCents } from '../common/line-items';
import type { Estimate } from './schema';

/**
 * spec, Estimate: `total` is "the package the homeowner chose, else the base package, computed as
 * the PDF computes it". A package costs the shared scope plus its own lines. Until a package is
 * chosen, one price for the whole job stands for the base (decisions.md, Estimates), else the
 * first package, else the priced scope; null (never 0) when a line it needs has no price.
 * Upgrades are quoted outside it.
 */
export function estimateFigures(
  e: Pick<Estimate, 'scope' | 'packages' | 'upgrades' | 'price' | 'selected_tier'>,
) {
  const scope = linesCents(e.scope);
  const packages = new Map<string, bigint | undefined>();
  for (const p of e.packages) {
    const own = linesCents(p.lines);
    packages.set(p.name, scope === undefined || own === undefined ? undefined : scope + own);
  }
  const priced = [...packages].every(([, cents]) => cents !== undefined);
  const base = packages.size === 0 ? scope : [...packages.values()][0];
  let upgrades = 0n;
  for (const u of e.upgrades) {
    upgrades += toCents(u.price);
  }
  // The one price is a figure like any other (decisions.md, Money): shown to the cent, rounded
  // once, as an invoice's discount amount is; 1.005 is 1.01, not the 1.005 the client sent.
  const price = e.price === null ? undefined : toCents(e.price);
  const tier = e.selected_tier;
  const total = tier !== null && packages.has(tier) ? packages.get(tier) : (price ?? base);
  return {
    total: total === undefined ? null : dollars(total),
    package_totals:
      packages.size > 0 && priced
        ? Object.fromEntries([...packages].map(([name, cents]) => [name, dollars(cents ?? 0n)]))
        : null,
    upgrades_total: e.upgrades.length > 0 ? dollars(upgrades) : null,
  };
}
