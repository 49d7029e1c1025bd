import { dollars, toCents } from '../common/cents';
import { linesCents } from '../common/line-items';
import type { Estimate } from './schema';

/**
 * decisions.md, Estimates: the totals as the PDF computes them. A package costs the shared scope
 * plus its own lines; `total` is one price for the whole job when there is one, else the package
 * the homeowner chose, else the first (base) package, else the priced scope; null (never 0) when
 * a line has no price. Upgrades are quoted outside it.
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
  const base =
    packages.size === 0
      ? scope
      : (packages.get(e.selected_tier ?? '') ?? [...packages.values()][0]);
  let upgrades = 0n;
  for (const u of e.upgrades) {
    upgrades += toCents(u.price);
  }
  // The one price is a figure like any other (decisions.md, Money): shown to the cent, rounded
  // once, as an invoice's discount amount is; 1.005 is 1.01, not the 1.005 the client sent.
  const price = e.price === null ? undefined : toCents(e.price);
  return {
    total: price !== undefined ? dollars(price) : base === undefined ? null : dollars(base),
    package_totals:
      packages.size > 0 && priced
        ? Object.fromEntries([...packages].map(([name, cents]) => [name, dollars(cents ?? 0n)]))
        : null,
    upgrades_total: e.upgrades.length > 0 ? dollars(upgrades) : null,
  };
}
