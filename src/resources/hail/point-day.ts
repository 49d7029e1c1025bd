import type { HailEvent, WindEvent } from './model';
import { nearestSize } from './sizes';
import { MI_PER_DEG_LAT, type Offset, offsetOf, REPORT_RADIUS_MI, strengthAt } from './track';
import {
  EAST,
  HALF_WIDTH,
  KIND,
  KX,
  LENGTH,
  LINE_FROM,
  LINE_TO,
  NORTH,
  PEAK,
  POSH_LEAN,
  RADAR_BIAS,
  REF_LAT,
  REF_LON,
  REPORTS_FROM,
  REPORTS_TO,
  SOUTH,
  WEST,
  type YearIndex,
} from './year-index';

// What a point saw on one day: the tracks of the day that reach it are read one by one (the hail
// swaths that cover it, as the radar saw them; the ground reports within the radius; the strongest
// damaging gust), then the day's hail is ruled as the spec says: confirmed when a ground report
// backs the size, likely, or radar when the radar alone saw it.

/** A severe-hail probability at or above this makes radar-only hail `likely`. */
export const HIGH_SEVERE_HAIL_PROBABILITY = 0.7;

/** What one day's tracks brought to a point, gathered track by track. */
export class DayAtPoint {
  readonly #index: YearIndex;
  readonly #lat: number;
  readonly #lon: number;
  /** The day gathered (days since 1970); -1 before the first. */
  day = -1;
  /** Whether a hail swath crossed the point (seen by radar or not). */
  #hit = false;
  #radarSize = 0;
  #posh = 0;
  #gust = 0;
  /** Ground reports within the radius: distance and size, two numbers each. */
  #reports: number[] = [];

  constructor(index: YearIndex, lat: number, lon: number) {
    this.#index = index;
    this.#lat = lat;
    this.#lon = lon;
  }

  open(day: number): void {
    this.day = day;
    this.#hit = false;
    this.#radarSize = 0;
    this.#posh = 0;
    this.#gust = 0;
    this.#reports = [];
  }

  /** The track whose fields start at `o` in the year's `num`. */
  add(o: number): void {
    const num = this.#index.num;
    const geo = this.#index.geo;
    const lat = this.#lat;
    const lon = this.#lon;
    if (
      lat < (num[o + SOUTH] as number) ||
      lat > (num[o + NORTH] as number) ||
      lon < (num[o + WEST] as number) ||
      lon > (num[o + EAST] as number)
    ) {
      return;
    }
    const px = (lon - (num[o + REF_LON] as number)) * (num[o + KX] as number);
    const py = (lat - (num[o + REF_LAT] as number)) * MI_PER_DEG_LAT;
    const at = offsetOf(geo, num[o + LINE_FROM] as number, num[o + LINE_TO] as number, px, py);
    const strength = strengthAt(reachOf(num, o), at);
    if (num[o + KIND] === 1) {
      this.#gust = Math.max(this.#gust, strength === undefined ? 0 : Math.round(strength));
      return;
    }
    for (let k = num[o + REPORTS_FROM] as number; k < (num[o + REPORTS_TO] as number); k += 3) {
      const miles = Math.hypot((geo[k] as number) - px, (geo[k + 1] as number) - py);
      if (miles <= REPORT_RADIUS_MI) {
        this.#reports.push(miles, geo[k + 2] as number);
      }
    }
    if (strength !== undefined) {
      this.#hit = true;
      this.#radar(num, o, strength, at);
    }
  }

  #radar(num: Float32Array, o: number, strength: number, at: Offset): void {
    const bias = num[o + RADAR_BIAS] as number;
    if (bias === 0) {
      return; // no radar saw this storm
    }
    const size = nearestSize(strength * bias);
    // The severe-hail probability grows with the estimated size and toward the swath's core.
    const core = 1 - at.miles / (num[o + HALF_WIDTH] as number);
    const lean = num[o + POSH_LEAN] as number;
    const posh =
      Math.round(clamp(0.22 + 0.36 * (size - 0.75) + 0.15 * core + lean, 0.05, 1) * 100) / 100;
    if (size > this.#radarSize || (size === this.#radarSize && posh > this.#posh)) {
      this.#radarSize = size;
      this.#posh = posh;
    }
  }

  close(hail: HailEvent[], wind: WindEvent[]): void {
    if (this.day < 0) {
      return;
    }
    const date = this.#index.dates[this.day - this.#index.firstDay] as string;
    if (this.#gust > 0) {
      wind.push({ date, max_gust_mph: this.#gust });
    }
    const event = this.#hit ? this.#ruled(date) : undefined;
    if (event) {
      hail.push(event);
    }
    this.day = -1;
  }

  /**
   * The day's hail, ruled from the radar and the ground reports: the size is the radar's estimate
   * at the point (else, unseen by radar, the nearest report's); it is confirmed when a report
   * within the radius is at least that size, likely when reports are near but smaller or the
   * radar's severe-hail probability is high, and radar when the radar alone saw it.
   */
  #ruled(date: string): HailEvent | undefined {
    const reports = this.#reports;
    const count = reports.length / 2;
    const radar = this.#radarSize > 0;
    let nearest = -1;
    for (let k = 0; k < reports.length; k += 2) {
      if (nearest < 0 || (reports[k] as number) < (reports[nearest] as number)) {
        nearest = k;
      }
    }
    if (!radar && nearest < 0) {
      return undefined; // a swath no radar saw and no one reported: nothing is known of it
    }
    const size = radar ? this.#radarSize : (reports[nearest + 1] as number);
    let backing = -1;
    for (let k = 0; k < reports.length; k += 2) {
      const backs = (reports[k + 1] as number) >= size;
      if (backs && (backing < 0 || (reports[k] as number) < (reports[backing] as number))) {
        backing = k;
      }
    }
    const shown = backing >= 0 ? backing : nearest;
    const confidence =
      backing >= 0
        ? 'confirmed'
        : count > 0 || this.#posh >= HIGH_SEVERE_HAIL_PROBABILITY
          ? 'likely'
          : 'radar';
    return {
      date,
      size_in: size,
      confidence,
      confirmed_by_ground_report: confidence === 'confirmed',
      radar_estimated_size_in: radar ? this.#radarSize : null,
      severe_hail_probability: radar ? this.#posh : null,
      ground_report_size_in: shown >= 0 ? (reports[shown + 1] as number) : null,
      ground_report_distance_mi:
        shown >= 0 ? Math.round((reports[shown] as number) * 10) / 10 : null,
      ground_report_count: count,
    };
  }
}

const clamp = (n: number, low: number, high: number) => Math.min(high, Math.max(low, n));

const reachOf = (num: Float32Array, o: number) => ({
  hail: num[o + KIND] === 0,
  peak: num[o + PEAK] as number,
  halfWidth: num[o + HALF_WIDTH] as number,
  length: num[o + LENGTH] as number,
});
