// What other families use of the estimate-templates family: they import it through here and
// nowhere else (test/architecture holds them to it).

export type { EstimateTemplate, Package, Upgrade } from './schema';
