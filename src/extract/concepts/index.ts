/**
 * The concept tables of every language merged into one keyword matcher (as lexicon.ts merges the
 * rules' tables): `findConcepts(fold)` gives the concept hits of a segment's folded text. Adding a
 * language is adding its file here.
 */
import { type KeywordHit, KeywordMatcher, type KeywordSpec } from '../matcher.ts';
import { foldKeyword } from '../normalize.ts';
import { af } from './af.ts';
import { am } from './am.ts';
import { ar } from './ar.ts';
import { az } from './az.ts';
import { be } from './be.ts';
import { bg } from './bg.ts';
import { bn } from './bn.ts';
import { bs } from './bs.ts';
import { ca } from './ca.ts';
import { cs } from './cs.ts';
import { cy } from './cy.ts';
import { da } from './da.ts';
import { de } from './de.ts';
import { el } from './el.ts';
import { en } from './en.ts';
import { es } from './es.ts';
import { et } from './et.ts';
import { eu } from './eu.ts';
import { fa } from './fa.ts';
import { fi } from './fi.ts';
import { fil } from './fil.ts';
import { fr } from './fr.ts';
import { ga } from './ga.ts';
import { gl } from './gl.ts';
import { gu } from './gu.ts';
import { ha } from './ha.ts';
import { he } from './he.ts';
import { hi } from './hi.ts';
import { hr } from './hr.ts';
import { hu } from './hu.ts';
import { hy } from './hy.ts';
import { id } from './id.ts';
import { ig } from './ig.ts';
import { is } from './is.ts';
import { it } from './it.ts';
import { ja } from './ja.ts';
import { ka } from './ka.ts';
import { kk } from './kk.ts';
import { km } from './km.ts';
import { kn } from './kn.ts';
import { ko } from './ko.ts';
import { ku } from './ku.ts';
import { lb } from './lb.ts';
import { lo } from './lo.ts';
import { lt } from './lt.ts';
import { lv } from './lv.ts';
import { mg } from './mg.ts';
import { mk } from './mk.ts';
import { ml } from './ml.ts';
import { mn } from './mn.ts';
import { mr } from './mr.ts';
import { ms } from './ms.ts';
import { my } from './my.ts';
import { ne } from './ne.ts';
import { nl } from './nl.ts';
import { no } from './no.ts';
import { pa } from './pa.ts';
import { pl } from './pl.ts';
import { ps } from './ps.ts';
import { pt } from './pt.ts';
import { ro } from './ro.ts';
import { ru } from './ru.ts';
import { rw } from './rw.ts';
import { si } from './si.ts';
import { sk } from './sk.ts';
import { sl } from './sl.ts';
import { so } from './so.ts';
import { sr } from './sr.ts';
import { sv } from './sv.ts';
import { sw } from './sw.ts';
import { ta } from './ta.ts';
import { CONCEPTS, type Concept, type ConceptTable } from './table.ts';
import { te } from './te.ts';
import { th } from './th.ts';
import { tr } from './tr.ts';
import { uk } from './uk.ts';
import { ur } from './ur.ts';
import { uz } from './uz.ts';
import { vi } from './vi.ts';
import { xh } from './xh.ts';
import { yo } from './yo.ts';
import { zh } from './zh.ts';
import { zu } from './zu.ts';

export type { Concept } from './table.ts';
export { CONCEPTS } from './table.ts';

export const CONCEPT_TABLES: readonly ConceptTable[] = [
  af,
  am,
  ar,
  az,
  be,
  bg,
  bn,
  bs,
  ca,
  cs,
  cy,
  da,
  de,
  el,
  en,
  es,
  et,
  eu,
  fa,
  fi,
  fil,
  fr,
  ga,
  gl,
  gu,
  ha,
  he,
  hi,
  hr,
  hu,
  hy,
  id,
  ig,
  is,
  it,
  ja,
  ka,
  kk,
  km,
  kn,
  ko,
  ku,
  lb,
  lo,
  lt,
  lv,
  mg,
  mk,
  ml,
  mn,
  mr,
  ms,
  my,
  ne,
  nl,
  no,
  pa,
  pl,
  ps,
  pt,
  ro,
  ru,
  rw,
  si,
  sk,
  sl,
  so,
  sr,
  sv,
  sw,
  ta,
  te,
  th,
  tr,
  uk,
  ur,
  uz,
  vi,
  xh,
  yo,
  zh,
  zu,
];

function buildSpecs(tables: readonly ConceptTable[]): KeywordSpec<Concept>[] {
  const merged = new Map<string, KeywordSpec<Concept>>();
  for (const table of tables) {
    for (const concept of CONCEPTS) {
      for (const raw of table[concept]) {
        const openLeft = raw.startsWith('*');
        const openRight = raw.endsWith('*') && raw.length > 1;
        const text = foldKeyword(raw.slice(openLeft ? 1 : 0, openRight ? -1 : undefined));
        if (text.length === 0) continue;
        const key = `${concept}\u0000${text}`;
        const seen = merged.get(key);
        merged.set(key, {
          text,
          cls: concept,
          openLeft: openLeft || (seen?.openLeft ?? false),
          openRight: openRight || (seen?.openRight ?? false),
        });
      }
    }
  }
  return [...merged.values()];
}

/** Every concept table's keywords, merged (exported for the matcher's reference test). */
export const CONCEPT_SPECS = buildSpecs(CONCEPT_TABLES);
const matcher = new KeywordMatcher(CONCEPT_SPECS);

/** Concept hits in folded text, sorted by start. */
export function findConcepts(fold: string): KeywordHit<Concept>[] {
  return matcher.find(fold);
}
