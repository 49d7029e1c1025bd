// spec, Contacts: US phone numbers are stored as (NNN) NNN-NNNN, whatever form they came in;
// a number that starts with + and is not North American keeps its digits as +NNN...
const EXTENSION = /\s*(?:x|ext\.?|extension)\s*(\d{1,6})$/i;

export function normalizePhone(input: string): string | undefined {
  const text = input.trim();
  const ext = EXTENSION.exec(text);
  const main = ext ? text.slice(0, ext.index) : text;
  if (main === '' || /[^\d\s().+\-/]/.test(main)) {
    return undefined;
  }
  const digits = main.replace(/\D/g, '');
  const suffix = ext ? ` x${ext[1]}` : '';
  // With a +, the country code is explicit: only +1 is North American.
  const international = main.startsWith('+');
  const national =
    digits.length === 11 && digits.startsWith('1')
      ? digits.slice(1)
      : digits.length === 10 && !international
        ? digits
        : undefined;
  if (national !== undefined) {
    return `(${national.slice(0, 3)}) ${national.slice(3, 6)}-${national.slice(6)}${suffix}`;
  }
  if (international && digits.length >= 8 && digits.length <= 15) {
    return `+${digits}${suffix}`;
  }
  return undefined;
}

/** The digits a phone search compares: the national number, without extension. */
export function phoneKey(input: string): string {
  const ext = EXTENSION.exec(input);
  const digits = (ext ? input.slice(0, ext.index) : input).replace(/\D/g, '');
  return digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits;
}
