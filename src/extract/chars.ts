/**
 * Character helpers shared by the code scanners. ASCII only on purpose: codes are typed with
 * ASCII letters and digits (other digit scripts are already normalised to ASCII).
 */

export const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
export const isLetter = (c: number): boolean =>
  (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
export const isAlnum = (c: number): boolean => isDigit(c) || isLetter(c);

/** Neighbours that make a token part of a path, parameter, address or base64 blob. */
export const PATH_NEIGHBOURS = '/=?&_@\\+';

export function neighbourBefore(text: string, start: number): string {
  let k = start - 1;
  if (text[k] === ' ') k -= 1;
  return text[k] ?? '';
}

export function neighbourAfter(text: string, end: number): string {
  let k = end;
  if (text[k] === ' ') k += 1;
  return text[k] ?? '';
}
