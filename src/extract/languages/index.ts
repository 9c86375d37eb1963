/**
 * All keyword tables. The extractor merges them into one matcher, so adding a language is adding a
 * file here; nothing else changes. Order does not matter.
 */
import { ar } from './ar.ts';
import { common } from './common.ts';
import { cs } from './cs.ts';
import { da } from './da.ts';
import { de } from './de.ts';
import { el } from './el.ts';
import { en } from './en.ts';
import { es } from './es.ts';
import { fa } from './fa.ts';
import { fi } from './fi.ts';
import { fr } from './fr.ts';
import { he } from './he.ts';
import { hi } from './hi.ts';
import { hu } from './hu.ts';
import { id } from './id.ts';
import { it } from './it.ts';
import { ja } from './ja.ts';
import { ko } from './ko.ts';
import { nl } from './nl.ts';
import { no } from './no.ts';
import { pl } from './pl.ts';
import { pt } from './pt.ts';
import { ro } from './ro.ts';
import { ru } from './ru.ts';
import { sv } from './sv.ts';
import type { LanguageTable } from './table.ts';
import { th } from './th.ts';
import { tr } from './tr.ts';
import { uk } from './uk.ts';
import { vi } from './vi.ts';
import { zh } from './zh.ts';

export type { KeywordClass, LanguageTable } from './table.ts';
export { KEYWORD_CLASSES } from './table.ts';

export const LANGUAGE_TABLES: readonly LanguageTable[] = [
  common,
  en,
  es,
  fr,
  de,
  pt,
  it,
  nl,
  pl,
  ru,
  uk,
  tr,
  zh,
  ja,
  ko,
  ar,
  fa,
  hi,
  vi,
  id,
  sv,
  da,
  no,
  fi,
  he,
  cs,
  el,
  ro,
  hu,
  th,
];
