/**
 * The merged lexicon: every language table folded into one keyword matcher plus the set of URL
 * words. Built once at module load; immutable afterwards. Language is never detected: a message
 * in any language (or several) is matched against all tables at once.
 */
import {
  KEYWORD_CLASSES,
  type KeywordClass,
  LANGUAGE_TABLES,
  type LanguageTable,
} from './languages/index.ts';
import { type KeywordHit, KeywordMatcher, type KeywordSpec } from './matcher.ts';
import { foldKeyword } from './normalize.ts';

export type Hit = KeywordHit<KeywordClass>;

function buildSpecs(tables: readonly LanguageTable[]): KeywordSpec<KeywordClass>[] {
  // Key: folded text + class; value: the most permissive boundary flags seen.
  const merged = new Map<string, KeywordSpec<KeywordClass>>();
  for (const table of tables) {
    for (const cls of KEYWORD_CLASSES) {
      for (const raw of table[cls] ?? []) {
        const openLeft = raw.startsWith('*');
        const openRight = raw.endsWith('*') && raw.length > 1;
        const body = raw.slice(openLeft ? 1 : 0, openRight ? -1 : undefined);
        const text = foldKeyword(body);
        if (text.length === 0) continue;
        const key = `${cls}\u0000${text}`;
        const seen = merged.get(key);
        merged.set(key, {
          text,
          cls,
          openLeft: openLeft || (seen?.openLeft ?? false),
          openRight: openRight || (seen?.openRight ?? false),
        });
      }
    }
  }
  return [...merged.values()];
}

/** Every language table's keywords, merged (exported for the matcher's reference test). */
export const LEXICON_SPECS = buildSpecs(LANGUAGE_TABLES);
const matcher = new KeywordMatcher(LEXICON_SPECS);

/** Keyword hits in folded text, sorted by start. */
export function findKeywords(fold: string): Hit[] {
  return matcher.find(fold);
}

/** ASCII words that mark sign-in or verification URLs, from every table. */
export const URL_AUTH_WORDS: ReadonlySet<string> = new Set(
  LANGUAGE_TABLES.flatMap((t) => t.urlWords.map((w) => foldKeyword(w))),
);

const PROMO_WORDS: readonly string[] = LANGUAGE_TABLES.flatMap((t) =>
  t.promo.map((w) => foldKeyword(w.replace(/^\*|\*$/g, ''))),
);

/**
 * Whether a code label names a sign-in purpose by itself ("verification code", "OTP", "验证码")
 * rather than being a bare "code" that promo phrases share ("code" in "promo code", "kod" in
 * "kod rabatowy", "码" in "优惠码"). Derived from the tables, so every language gets it.
 */
export function isPurposeCodeLabel(folded: string): boolean {
  let known = purposeCache.get(folded);
  if (known === undefined) {
    known = !PROMO_WORDS.some((p) => p.includes(folded));
    // Labels come from the tables, so the cache is bounded by their size.
    purposeCache.set(folded, known);
  }
  return known;
}
const purposeCache = new Map<string, boolean>();
