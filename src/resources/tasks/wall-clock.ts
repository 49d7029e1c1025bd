import { z } from '@hono/zod-openapi';
import { plusFromSpace } from '../../platform/paging';
import { isCalendarDate } from '../common/fields';

const FORM =
  /^(\d{4}-\d{2}-\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-](\d{2}):?(\d{2}))?)?$/i;

/**
 * spec, Tasks: `due_date` is the local time the crew reads. An offset sent with it is dropped and
 * the clock digits kept; no time-zone shift is ever applied. A date alone means its midnight.
 * `2026-05-14T09:30:00-05:00` → `2026-05-14T09:30:00`. undefined when it is no date or time.
 */
export function wallClock(text: string): string | undefined {
  const m = FORM.exec(text.trim());
  if (!m || !isCalendarDate(m[1] ?? '')) {
    return undefined;
  }
  const [h, min, s] = [m[2] ?? '00', m[3] ?? '00', m[4] ?? '00'];
  if (Number(h) > 23 || Number(min) > 59 || Number(s) > 59) {
    return undefined;
  }
  // The offset is dropped, but it must be one: -12:00 to +14:00 (decisions.md).
  if (
    m[5] !== undefined &&
    m[5].toUpperCase() !== 'Z' &&
    (Number(m[6]) > 14 || Number(m[7]) > 59)
  ) {
    return undefined;
  }
  return `${m[1]}T${h}:${min}:${s}`;
}

/** A wall-clock field; `inQuery`: a space before the offset is its `+` sent unencoded. */
export const wallClockField = (inQuery = false) =>
  z
    .string()
    .max(40)
    .transform((text, ctx) => {
      const value = wallClock(inQuery ? plusFromSpace(text) : text);
      if (value === undefined) {
        ctx.addIssue({
          code: 'custom',
          message: 'must be a date or a local time YYYY-MM-DDTHH:MM:SS',
        });
        return z.NEVER;
      }
      return value;
    })
    .openapi({
      example: '2026-05-14T09:30:00',
      description: 'Wall-clock local time; an offset sent is dropped, the digits kept',
    });
