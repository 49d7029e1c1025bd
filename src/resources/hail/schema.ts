import { z } from '@hono/zod-openapi';
import { date } from '../common/fields';

// spec, Hail report (object = hail_report) and GET /hail_history.

const inches = (description: string) => z.number().openapi({ description, example: 1.75 });
const day = () => z.string().openapi({ format: 'date', example: '2026-05-14' });

export const HailEventSchema = z
  .object({
    date: day(),
    size_in: inches('The hail size ruled for the day at the place (inches)'),
    // spec, Unknown fields/enums: enumerations are open, so the value is a string described.
    confidence: z.string().openapi({
      description:
        'confirmed (a ground report within 10 miles backs the size), likely (a report near but smaller, or a severe-hail probability of 0.7 or more), radar (radar only)',
      example: 'confirmed',
    }),
    confirmed_by_ground_report: z.boolean(),
    radar_estimated_size_in: inches(
      'The radar estimate at the place; null when no radar saw it',
    ).nullable(),
    severe_hail_probability: z.number().min(0).max(1).nullable().openapi({
      description: 'The radar probability of severe hail, 0 to 1; null when no radar saw it',
      example: 0.72,
    }),
    ground_report_size_in: inches(
      'The ground report shown: the nearest that backs the size, else the nearest; null with no report within 10 miles',
    ).nullable(),
    ground_report_distance_mi: z.number().nullable().openapi({
      description:
        'How far that report is (miles, to a tenth); null with no report within 10 miles',
      example: 2.4,
    }),
    ground_report_count: z.number().int().openapi({
      description: 'Ground reports of the day within 10 miles',
    }),
  })
  .openapi('HailEvent');

export const WindEventSchema = z
  .object({
    date: day(),
    max_gust_mph: z.number().int().openapi({ description: 'Damaging wind: 58 mph or more' }),
  })
  .openapi('WindEvent');

export const HailReportSchema = z
  .object({
    object: z.literal('hail_report'),
    address: z.string().openapi({
      description:
        'The place, normalised: `street, city, ST 12345` for an address; `city, ST 12345` of the nearest ZIP for coordinates',
    }),
    latitude: z.number(),
    longitude: z.number(),
    since: day(),
    hail_day_count: z.number().int(),
    largest_hail_in: z.number().nullable().openapi({ description: 'null with no hail day' }),
    last_hail_date: day().nullable().openapi({ description: 'null with no hail day' }),
    hail_events: z.array(HailEventSchema).openapi({ description: 'Every hail day, newest first' }),
    wind_events: z
      .array(WindEventSchema)
      .openapi({ description: 'Every damaging-wind day, newest first' }),
  })
  .openapi('HailReport');

export type HailReport = z.infer<typeof HailReportSchema>;

// A number as a query carries it: digits with an optional sign, point and exponent (no hex, no
// Infinity, which Number() would also take).
const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** A coordinate in the query: empty is as if not sent; out of its range is 400 naming it. */
const coordinate = (limit: number, description: string) =>
  z
    .string()
    .optional()
    .transform((text, ctx) => {
      const t = text?.trim() ?? '';
      if (t === '') {
        return undefined;
      }
      const n = NUMBER.test(t) ? Number(t) : Number.NaN;
      if (!Number.isFinite(n)) {
        ctx.addIssue({ code: 'custom', message: 'must be a number' });
        return z.NEVER;
      }
      if (n < -limit || n > limit) {
        ctx.addIssue({ code: 'custom', message: `must be between -${limit} and ${limit}` });
        return z.NEVER;
      }
      return n;
    })
    .openapi({ type: 'number', minimum: -limit, maximum: limit, description });

const blankIsUnsent = (text: string | undefined) => (text?.trim() ? text.trim() : undefined);

export const HailQuery = z.object({
  address: z.string().max(300).optional().transform(blankIsUnsent).openapi({
    description:
      'A US street address on one line: `street, city, ST 12345`, or shorter (`street, 12345`; `street, city, ST`); instead of latitude and longitude',
    example: '1200 N Walker Ave, Oklahoma City, OK 73103',
  }),
  latitude: coordinate(90, 'With longitude, instead of an address'),
  longitude: coordinate(180, 'With latitude, instead of an address'),
  since: z.string().optional().transform(blankIsUnsent).pipe(date().optional()).openapi({
    type: 'string',
    format: 'date',
    description:
      'The first day reported (YYYY-MM-DD, not after today); default five years before today',
  }),
});

export type HailQueryInput = z.output<typeof HailQuery>;
