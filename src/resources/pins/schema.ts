// spec, Pin: the knock results, and the pin types the Filters table lists.
export const KNOCK_RESULTS = [
  'interested',
  'not_interested',
  'contacted',
  'no_answer',
  'door_hanger',
  'follow_up',
  'appointment_scheduled',
  'dont_knock',
  'renter',
  'no_damage',
  'cash_quote',
  'lost',
] as const;
export const PIN_TYPES = ['knock', 'inspection', 'job'] as const;
