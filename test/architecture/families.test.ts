import { describe, expect, test } from 'vitest';
import { familyCycles, familyOf, imports } from './imports';

// The house rules of src/ that its imports show (issue 36), read from the source files themselves.
const all = imports();

describe('the import rules of src/', () => {
  test('the scan finds the imports it checks', () => {
    // A scan that matched nothing would pass every rule below.
    expect(all.length).toBeGreaterThan(1000);
    expect(
      all.some((i) => i.from === 'resources/index.ts' && i.to === 'resources/jobs/index.ts'),
    ).toBe(true);
  });

  test('a route file imports nothing from src/store, types included', () => {
    const routeFile = /(^|\/)routes(\/[^/]+)?\.tsx?$/;
    const offending = all
      .filter((i) => routeFile.test(i.from) && i.to?.startsWith('store/'))
      .map((i) => `${i.from} imports ${i.specifier}`);
    expect(offending).toEqual([]);
  });

  test("a family imports another only through its face (api.ts), or a seed another's seed", () => {
    // What a family offers the others is one file, so a reader sees it, and its other files are
    // free to change. Seeds are loaded apart (faker stays out of a start) and use each other's.
    const offending = all
      .filter((i) => {
        const from = familyOf(i.from);
        const to = familyOf(i.to);
        if (from === undefined || to === undefined || from === to) {
          return false;
        }
        const seedToSeed = i.from.endsWith('/seed.ts') && i.to?.endsWith('/seed.ts');
        return i.to !== `resources/${to}/api.ts` && !seedToSeed;
      })
      .map((i) => `${i.from} imports ${i.specifier}`);
    expect(offending).toEqual([]);
  });

  test('no cycle between family folders', () => {
    // A family reads another through the registry, or imports one it builds on (a note imports
    // what a job is), never both ways round: what one family shows of another's records is handed
    // to it (RouteDeps.jobLists, PageDeps.onJob).
    expect(familyCycles(all)).toEqual([]);
  });

  test('no file of src/web imports a family folder: the web app finds families through the registry', () => {
    const offending = all
      .filter((i) => i.from.startsWith('web/') && familyOf(i.to) !== undefined)
      .map((i) => `${i.from} imports ${i.specifier}`);
    expect(offending).toEqual([]);
  });

  test("the kit a family's pages are drawn with (src/web/ui, src/web/homeowner) imports no family", () => {
    // A family's pages import the kit; were the kit to import a family or the registry, the web
    // app's pages would go round in a circle through the families.
    const kit = /^web\/(ui|homeowner)\//;
    const offending = all
      .filter(
        (i) => kit.test(i.from) && (familyOf(i.to) !== undefined || i.to === 'resources/index.ts'),
      )
      .map((i) => `${i.from} imports ${i.specifier}`);
    expect(offending).toEqual([]);
  });

  test("a family's pages use nothing of src/web but the kit", () => {
    const offending = all
      .filter(
        (i) =>
          familyOf(i.from) !== undefined &&
          i.to?.startsWith('web/') &&
          !/^web\/(ui|homeowner)\//.test(i.to),
      )
      .map((i) => `${i.from} imports ${i.specifier}`);
    expect(offending).toEqual([]);
  });
});
