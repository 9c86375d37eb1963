/**
 * The number pool's configuration language: a comma-separated list of US numbers in E.164 and
 * inclusive ranges of them, e.g. `+12025550100-+12025550199,+13125550142`.
 *
 * The synthetic default uses 555-0100…555-0199 in ten area codes: the block the North American
 * Numbering Plan reserves for fiction, so a synthetic number can never be a real subscriber's.
 * Pure functions; config.ts calls them so a bad spec stops the start with a clear message.
 */

/** A NANP number: +1, an area code and exchange that do not start with 0 or 1, four digits. */
const usE164 = /^\+1[2-9]\d{2}[2-9]\d{6}$/;
const MAX_POOL = 100_000;

const fictionalAreaCodes = [201, 202, 212, 303, 312, 415, 512, 617, 702, 206];
export const DEFAULT_SYNTHETIC_POOL = fictionalAreaCodes
  .map((area) => `+1${area}5550100-+1${area}5550199`)
  .join(',');

export const isUsE164 = (value: string) => usE164.test(value);

/** Expands a pool spec into its numbers, in order, without duplicates; throws on a bad item. */
export function parsePoolSpec(spec: string): string[] {
  const numbers = new Set<string>();
  for (const raw of spec.split(',')) {
    const item = raw.trim();
    if (!item) continue;
    const [first, last, extra] = item.split('-').map((part) => part.trim());
    if (
      extra !== undefined ||
      !first ||
      !isUsE164(first) ||
      (last !== undefined && !isUsE164(last))
    ) {
      throw new Error(`"${item}" is not a US E.164 number (+1NXXNXXXXXX) or a range of them`);
    }
    const from = Number(first.slice(1));
    const to = last === undefined ? from : Number(last.slice(1));
    if (to < from) throw new Error(`"${item}": the range ends before it starts`);
    for (let n = from; n <= to; n++) {
      const candidate = `+${n}`;
      if (isUsE164(candidate)) numbers.add(candidate);
      if (numbers.size > MAX_POOL) throw new Error(`more than ${MAX_POOL} numbers`);
    }
  }
  return [...numbers];
}
