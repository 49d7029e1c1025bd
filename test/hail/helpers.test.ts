import { describe, expect, test } from 'vitest';
import { fiveYearsBefore, tidyStreet } from '../../src/resources/hail/service';
import { nearestSize, sizeAtMost, sizeStep } from '../../src/resources/hail/sizes';

describe('a street as the report names it', () => {
  test.each([
    ['1200 n walker ave', '1200 N Walker Ave'],
    ['  415   nw 12th st ', '415 NW 12th St'],
    ['9 McKinney Rd', '9 McKinney Rd'],
    ['77 SE Oak  st.', '77 SE Oak St.'],
    ['12 main st, , apt 4', '12 Main St, Apt 4'],
    ['5 e. elm', '5 E. Elm'],
  ])('%s reads %s', (typed, tidy) => {
    expect(tidyStreet(typed)).toBe(tidy);
  });
});

describe('five years before today', () => {
  test.each([
    ['2030-06-15', '2025-06-15'],
    ['2030-01-01', '2025-01-01'],
    ['2032-02-29', '2027-02-28'],
    ['2029-02-28', '2024-02-28'],
    ['2030-12-31', '2025-12-31'],
  ])('from %s is %s', (today, since) => {
    expect(fiveYearsBefore(today)).toBe(since);
  });
});

describe('the sizes hail is reported in', () => {
  test('a size falls to the largest reported size not above it; under 0.75 in is none', () => {
    expect(sizeAtMost(0.7)).toBe(0);
    expect(sizeAtMost(0.75)).toBe(0.75);
    expect(sizeAtMost(1.99)).toBe(1.75);
    expect(sizeAtMost(2.2)).toBe(2);
    expect(sizeAtMost(3.9)).toBe(3);
    expect(sizeAtMost(9)).toBe(4.5);
  });

  test('an estimate goes to the nearest reported size, never below 0.75 in', () => {
    expect(nearestSize(0.3)).toBe(0.75);
    expect(nearestSize(1.1)).toBe(1);
    expect(nearestSize(2.3)).toBe(2.5);
    expect(nearestSize(3.6)).toBe(4);
  });

  test('a step up or down the scale stays on it', () => {
    expect(sizeStep(1.75, 1)).toBe(2);
    expect(sizeStep(2, 1)).toBe(2.5);
    expect(sizeStep(0.75, -1)).toBe(0.75);
    expect(sizeStep(4.5, 1)).toBe(4.5);
  });
});
