import { z } from '@hono/zod-openapi';
import { defineEvents, enumFilter, type Family, previous, whereSet } from '../../platform/family';
import { KNOCK_RESULTS, PIN_TYPES } from './schema';

// Door-knock pins: their events are in the catalogue (and may be subscribed to) before svc holds
// pins; decisions.md, pin events take pin_type and knock_result (and previous_knock_result).
const pinType = enumFilter('pin_type', 'Pin type', PIN_TYPES);
const knockResult = enumFilter('knock_result', 'Knock result', KNOCK_RESULTS);

export const pins: Family = {
  name: 'pins',
  events: defineEvents({
    resource: 'pin',
    decls: [
      {
        event: 'pin.created',
        label: 'Door knock logged',
        description: 'A door knock was logged.',
        filters: [pinType, knockResult],
      },
      {
        event: 'pin.result_changed',
        label: 'Knock result changed',
        description: 'The knock result of a pin changed; previous_knock_result says from what.',
        filters: [
          pinType,
          knockResult,
          enumFilter('previous_knock_result', 'Previous knock result', KNOCK_RESULTS),
        ],
        extras: z.object({
          previous_knock_result: previous('The knock result before; null for none'),
        }),
        about: whereSet('knock_result'),
      },
    ],
  }),
};
