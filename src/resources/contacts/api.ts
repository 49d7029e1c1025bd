// What other families use of the contacts family: they import it through here and
// nowhere else (test/architecture holds them to it).

export { normalizePhone } from './phone';
export { contactName, customerName } from './present';
export { type Contact, contactFields } from './schema';
export { createContact, findContact, getContact, requireContact, splitName } from './service';
