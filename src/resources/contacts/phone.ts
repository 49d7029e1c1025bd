// spec, Contacts: a phone comes in "any format", and a US number is stored as (NNN) NNN-NNNN.
// A marker not inside a word (so "fax" and "text" are no extension), then its digits; `;ext=`
// is RFC 3966's form.
const EXTENSION = /(?<![a-z])(?:;ext=|extension|ext\.?|x|#)\s*(\d{1,6})/i;

// A North American number: area code and exchange both start with 2-9 (NANP).
const NANP = /^[2-9]\d{2}[2-9]\d{6}$/;

/** Full-width and other compatibility digits read as the digits they are. */
const plain = (text: string) => text.normalize('NFKC');

function split(text: string): { main: string; ext: string | undefined; rest: string } {
  const ext = EXTENSION.exec(text);
  return ext
    ? { main: text.slice(0, ext.index), ext: ext[1], rest: text.slice(ext.index + ext[0].length) }
    : { main: text, ext: undefined, rest: '' };
}

/** The ten digits of a recognisable US number (a leading 1 or +1 allowed), else undefined. */
function usDigits(main: string): string | undefined {
  const digits = main.replace(/\D/g, '');
  const international = /^\s*\D*?\+/.test(main) || /^\s*00/.test(main);
  const national =
    digits.length === 11 && digits.startsWith('1')
      ? digits.slice(1)
      : digits.length === 10 && !international
        ? digits
        : undefined;
  return national !== undefined && NANP.test(national) ? national : undefined;
}

/**
 * decisions.md: a recognisable US number (ten digits, or eleven with a leading 1, labels such as
 * "Tel:" or "(cell)" around it, an extension of up to six digits after it) is stored as
 * (NNN) NNN-NNNN, the extension kept as ` xNN`. Anything else (an international number, a partial
 * one, two numbers, digits after the extension) is kept as sent, trimmed.
 */
export function normalizePhone(input: string): string {
  const text = input.trim();
  const { main, ext, rest } = split(plain(text));
  const us = usDigits(main);
  if (us === undefined || /\d/.test(rest)) {
    return text;
  }
  const suffix = ext === undefined ? '' : ` x${ext}`;
  return `(${us.slice(0, 3)}) ${us.slice(3, 6)}-${us.slice(6)}${suffix}`;
}

/**
 * The digits a phone search compares: a US number's ten, else every digit before any extension,
 * an international prefix `00` read as `+` (0044 is +44).
 */
export function phoneKey(input: string): string {
  const { main } = split(plain(input));
  return usDigits(main) ?? main.replace(/\D/g, '').replace(/^00/, '');
}
