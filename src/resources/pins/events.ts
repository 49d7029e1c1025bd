import { z } from '@hono/zod-openapi';
import {
  comingIn,
  defineEvents,
  enumFilter,
  occurrence,
  previous,
  whereSet,
} from '../../platform/family';
import { KNOCK_RESULTS, PIN_TYPES } from './schema';

// spec, Events: pin.created and pin.result_changed; decisions.md, pin events take pin_type and
// knock_result (and previous_knock_result on result_changed).
const pinType = enumFilter('pin_type', 'Pin type', PIN_TYPES);
const knockResult = enumFilter('knock_result', 'Knock result', KNOCK_RESULTS);

export const pinEvents = defineEvents({
  resource: 'pin',
  decls: [
    {
      event: 'pin.created',
      label: 'Door knock logged',
      description: 'A door knock was logged.',
      filters: [pinType, knockResult],
      about: comingIn,
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
  lifecycle: { created: 'pin.created' },
  // spec, PATCH /pins/{id}: "fires pin.result_changed when the result moves", to a result or to
  // none; a change of anything else, or to the result it had, raises nothing.
  more: (was, now) =>
    was !== undefined && now !== undefined && was.knock_result !== now.knock_result
      ? [
          occurrence('pin.result_changed', now, {
            previous_knock_result: was.knock_result ?? null,
          }),
        ]
      : [],
});
