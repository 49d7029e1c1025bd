// The climatology the storm model draws from: where and when storms form. Storm systems start in
// regions, each a spread of starting points around a centre (a Gaussian, so no line on the map
// separates a stormy county from a quiet one), weighted by month. The hail belt (Texas to the
// Dakotas) dominates and peaks from April to June, with a smaller bump in late summer (August,
// when the plains' evening storms return after July's lull); the northern and high plains peak in
// early summer, the Southeast early, the monsoon West late; the coasts see little; winter is quiet.

export interface Region {
  name: string;
  lat: number;
  lon: number;
  /** Spread of a system's starting point (degrees, one standard deviation). */
  sdLat: number;
  sdLon: number;
  /** Relative weight of the region for a hail system, January to December. */
  months: readonly number[];
  /** Cells (swaths) a system there holds, relative to the season's mean. */
  cells: number;
  /** How large its hail grows: the mean of the peak size over 0.75 in, in inches. */
  hail: number;
  /** Share of its storms a radar sees well enough to estimate hail. */
  radar: number;
  /** Ground reports per 25 miles of swath (spotters and people). */
  spotters: number;
  /** Storm heading, degrees clockwise from north (the bearing the storm moves toward). */
  heading: number;
  headingSd: number;
  /** How much more often than hail its storms bring damaging wind. */
  wind: number;
}

export const REGIONS: readonly Region[] = [
  {
    name: 'southern plains',
    lat: 33.8,
    lon: -98.6,
    sdLat: 2.2,
    sdLon: 2.6,
    months: [3, 4, 8, 11, 11, 6, 2, 2, 3, 4, 3, 3],
    cells: 1.2,
    hail: 0.62,
    radar: 0.98,
    spotters: 1.1,
    heading: 60,
    headingSd: 18,
    wind: 1,
  },
  {
    name: 'central plains',
    lat: 39.4,
    lon: -98.4,
    sdLat: 1.9,
    sdLon: 2.6,
    months: [0.5, 1, 3, 7, 11, 11, 6, 4, 3, 2, 1, 0.5],
    cells: 1.2,
    hail: 0.62,
    radar: 0.98,
    spotters: 1,
    heading: 65,
    headingSd: 20,
    wind: 1,
  },
  {
    name: 'northern plains',
    lat: 45.6,
    lon: -99.5,
    sdLat: 1.9,
    sdLon: 3,
    months: [0, 0, 0.3, 2, 6, 10, 9, 6, 2, 0.5, 0, 0],
    cells: 1.1,
    hail: 0.55,
    radar: 0.95,
    spotters: 0.7,
    heading: 90,
    headingSd: 30,
    wind: 1.1,
  },
  {
    name: 'high plains',
    lat: 39.6,
    lon: -104.2,
    sdLat: 2.8,
    sdLon: 1.2,
    months: [0, 0, 0.4, 2, 6, 10, 8, 6, 2, 0.5, 0, 0],
    cells: 1,
    hail: 0.55,
    radar: 0.9,
    spotters: 0.8,
    heading: 95,
    headingSd: 30,
    wind: 0.6,
  },
  {
    name: 'midwest',
    lat: 40.6,
    lon: -89.5,
    sdLat: 2.2,
    sdLon: 3.8,
    months: [0.5, 1, 3, 5, 6, 6, 5, 4, 2, 1, 0.5, 0.5],
    cells: 0.9,
    hail: 0.42,
    radar: 0.99,
    spotters: 1.6,
    heading: 70,
    headingSd: 20,
    wind: 2,
  },
  {
    name: 'southeast',
    lat: 33.4,
    lon: -87.8,
    sdLat: 2,
    sdLon: 3.8,
    months: [2.5, 3, 5, 5, 3, 2, 1.5, 1.5, 1, 1, 1.5, 2],
    cells: 0.8,
    hail: 0.38,
    radar: 0.99,
    spotters: 1.3,
    heading: 60,
    headingSd: 20,
    wind: 2.4,
  },
  {
    name: 'northeast',
    lat: 41.3,
    lon: -77.2,
    sdLat: 1.8,
    sdLon: 3,
    months: [0, 0, 0.3, 0.8, 1.5, 2.5, 2.5, 1.8, 0.8, 0.3, 0, 0],
    cells: 0.7,
    hail: 0.3,
    radar: 0.99,
    spotters: 1.8,
    heading: 85,
    headingSd: 20,
    wind: 3,
  },
  {
    name: 'interior west',
    lat: 37.8,
    lon: -111.5,
    sdLat: 3.6,
    sdLon: 2.8,
    months: [0, 0, 0.2, 0.4, 0.8, 1.2, 2.2, 2.2, 1, 0.3, 0, 0],
    cells: 0.6,
    hail: 0.28,
    radar: 0.7,
    spotters: 0.5,
    heading: 60,
    headingSd: 45,
    wind: 0.8,
  },
  {
    name: 'florida',
    lat: 28.2,
    lon: -82.2,
    sdLat: 1.3,
    sdLon: 1,
    months: [0.2, 0.3, 0.6, 0.6, 0.6, 0.6, 0.6, 0.5, 0.3, 0.2, 0.2, 0.2],
    cells: 0.6,
    hail: 0.22,
    radar: 0.99,
    spotters: 1.4,
    heading: 60,
    headingSd: 90,
    wind: 2,
  },
  {
    name: 'pacific',
    lat: 43,
    lon: -121.4,
    sdLat: 3.2,
    sdLon: 1,
    months: [0.03, 0.03, 0.06, 0.08, 0.1, 0.1, 0.05, 0.05, 0.05, 0.06, 0.04, 0.03],
    cells: 0.5,
    hail: 0.15,
    radar: 0.75,
    spotters: 1,
    heading: 45,
    headingSd: 40,
    wind: 0.5,
  },
];

// Mean hail-bearing storm systems a day, and mean cells (swaths) a system, by month. Days are
// drawn around these, so some days are quiet and some are outbreaks.
const SYSTEMS_A_DAY = [0.3, 0.4, 0.8, 1.6, 2.3, 2.1, 1.1, 1.8, 1.0, 0.55, 0.35, 0.25];
const CELLS_A_SYSTEM = [2.5, 3, 4.5, 7, 8.5, 8.5, 6.5, 6.5, 4.5, 3.5, 2.5, 2.5];
// Systems that bring damaging wind without much hail (lines of storms, derechos): summer, east.
const WIND_SYSTEMS_A_DAY = [0.25, 0.3, 0.45, 0.6, 0.8, 1.1, 1.3, 1.1, 0.6, 0.4, 0.3, 0.25];

/** A month's figure, eased into its neighbours' over the month so no date jumps at the 1st. */
function seasonal(table: readonly number[], month: number, dayOfMonth: number, days: number) {
  const at = (m: number) => table[(m + 12) % 12] ?? 0;
  const f = (dayOfMonth - 0.5) / days - 0.5; // -0.5 at the month's start, +0.5 at its end
  const other = f < 0 ? at(month - 1) : at(month + 1);
  const w = Math.abs(f); // halfway to the neighbour at the month's edge
  return at(month) * (1 - w) + other * w;
}

export interface Season {
  systems: number;
  cells: number;
  windSystems: number;
  /** Relative weights of the regions this day. */
  regionWeights: number[];
  windRegionWeights: number[];
}

/** The climatology of one day of the year (`month` 0-11). */
export function seasonOf(month: number, dayOfMonth: number, daysInMonth: number): Season {
  const s = (t: readonly number[]) => seasonal(t, month, dayOfMonth, daysInMonth);
  const regionWeights = REGIONS.map((r) => s(r.months));
  return {
    systems: s(SYSTEMS_A_DAY),
    cells: s(CELLS_A_SYSTEM),
    windSystems: s(WIND_SYSTEMS_A_DAY),
    regionWeights,
    // Wind follows the same storms, but the east and the south see more of it than hail.
    windRegionWeights: regionWeights.map((w, i) => w * (REGIONS[i]?.wind ?? 1) + 0.02),
  };
}
