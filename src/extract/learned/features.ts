/**
 * Features of the candidates the rules found, for the learned scorer (model.ts).
 *
 * A code candidate is described by what the rules concluded about it (each kind of evidence with
 * its weight, its score and rank), its shape, the words standing near it in its own segment (by
 * side and distance), the keyword classes of the language tables near it and in the whole message
 * (the tables map words of 30 languages onto the same classes, so what is learnt of a class in one
 * language holds in the others), every pair of those classes (a code label beside "expired" means
 * something neither means alone), and the words of the whole message. A link candidate likewise,
 * with the words of its URL and anchor instead of shape.
 *
 * Each feature is an index into a weight table of 2^FEATURE_BITS entries (feature hashing) with a
 * value. Names are never built as strings on the hot path: a word is hashed once and combined with
 * the feature kind by integer mixing.
 */
import type { Analysis } from '../analysis.ts';
import type { ScoredCode } from '../choose-code.ts';
import { chooseLink, type ScoredLink } from '../choose-link.ts';
import { hitsBetween, type Segment } from '../segment.ts';
import { hash32, TokenList, tokenize } from './tokens.ts';

export const FEATURE_BITS = 18;
const SHIFT = 32 - FEATURE_BITS;

export interface Features {
  readonly index: readonly number[];
  readonly value: readonly number[];
}

/** Feature kinds: each mixes a different seed into the hash of its word or name. */
const Kind = {
  Name: 1,
  Left1: 2,
  Left2: 3,
  Left4: 4,
  LeftAny: 5,
  Right1: 6,
  Right2: 7,
  Right4: 8,
  RightAny: 9,
  Message: 10,
  Cross: 11,
  UrlWord: 12,
  QueryKey: 13,
  Anchor: 14,
  LeftPair: 15,
  RightPair: 16,
} as const;
type Kind = (typeof Kind)[keyof typeof Kind];

/** The index of (kind, hash): a multiplicative mix, top bits kept. */
const slot = (kind: Kind, h: number) =>
  Math.imul((h ^ Math.imul(kind, 0x85ebca6b)) >>> 0, 0x9e3779b1) >>> SHIFT;

/** Hashes of names (evidence kinds, classes, shapes): few and repeated, so computed once. */
const nameHashes = new Map<string, number>();
function nameHash(name: string): number {
  let h = nameHashes.get(name);
  if (h === undefined) {
    h = hash32(name);
    if (nameHashes.size < 50_000) nameHashes.set(name, h);
  }
  return h;
}

/** Builds one candidate's features (plain arrays: cheaper to make than typed ones, and as fast to read). */
class Builder {
  private index: number[] = [];
  private value: number[] = [];
  reset() {
    this.index = [];
    this.value = [];
    return this;
  }
  name(name: string, value = 1) {
    this.index.push(slot(Kind.Name, nameHash(name)));
    this.value.push(value);
  }
  hashed(h: number, value = 1) {
    this.index.push(slot(Kind.Name, h));
    this.value.push(value);
  }
  word(kind: Kind, h: number, value = 1) {
    this.index.push(slot(kind, h));
    this.value.push(value);
  }
  done(): Features {
    return { index: this.index, value: this.value };
  }
}
const builder = new Builder();

/** An evidence reason's feature and concept hashes (its kind: keywords in quotes and numbers dropped). */
const evidenceCache = new Map<string, { feature: number; concept: number }>();
function evidenceHashes(reason: string) {
  let known = evidenceCache.get(reason);
  if (known === undefined) {
    const kind = reason
      .replace(/"[^"]*"/g, 'Q')
      .replace(/'[^']*'/g, 'Q')
      .replace(/\d+/g, 'N')
      .slice(0, 60);
    known = { feature: hash32(`ev:${kind}`), concept: hash32(`ev${kind}`) };
    if (evidenceCache.size < 10_000) evidenceCache.set(reason, known);
  }
  return known;
}

/**
 * A keyword class near a candidate: feature hashes by side and distance bucket (0: the side
 * alone, 1-4: nearer to farther) and the concept hashes (near or far) its crosses use.
 */
interface ClassHashes {
  readonly feature: Uint32Array;
  readonly concept: Uint32Array;
  readonly message: number;
  readonly messageConcept: number;
}
const classCache = new Map<string, ClassHashes>();
function classHashes(cls: string): ClassHashes {
  let known = classCache.get(cls);
  if (known === undefined) {
    const feature = new Uint32Array(10);
    const concept = new Uint32Array(4);
    ['L', 'R'].forEach((side, s) => {
      feature[s * 5] = hash32(`H:${cls}:${side}`);
      for (let bucket = 1; bucket <= 4; bucket++) {
        feature[s * 5 + bucket] = hash32(`H:${cls}:${side}${bucket}`);
      }
      concept[s * 2] = hash32(`${cls}${side}n`);
      concept[s * 2 + 1] = hash32(`${cls}${side}f`);
    });
    known = {
      feature,
      concept,
      message: hash32(`H:${cls}:msg`),
      messageConcept: hash32(`m${cls}`),
    };
    classCache.set(cls, known);
  }
  return known;
}

const LEFT_TOKENS = 10;
const RIGHT_TOKENS = 6;
const MESSAGE_CHARS = 6000;
const MESSAGE_TOKENS = 600;
/** Weight of each message word: there are many, and they describe the message, not the candidate. */
const MESSAGE_VALUE = 0.5;
/** Leave-one-set-out: 0.25 → 96.7% exact, 87 invented codes; 0.5 → 96.6%, 106. */
const CROSS_VALUE = 0.25;

/** What every candidate of a message shares: its words and the keyword classes in it. */
export interface MessageContext {
  /** Hashes of the distinct words of the message. */
  readonly words: readonly number[];
  /** Keyword classes found anywhere in the message. */
  readonly classes: readonly ClassHashes[];
}

const scratch = new TokenList();

export function messageContext(segments: readonly Segment[]): MessageContext {
  const seen = new Set<number>();
  const classes = new Set<string>();
  outer: for (const seg of segments) {
    for (const h of seg.hits) classes.add(h.cls);
    for (const h of seg.concepts) classes.add(h.cls);
    const tokens = tokenize(seg.fold, 0, MESSAGE_CHARS, scratch);
    for (let i = 0; i < tokens.count; i++) {
      seen.add(tokens.hash[i]!);
      if (seen.size >= MESSAGE_TOKENS) break outer;
    }
  }
  const words: number[] = [];
  for (const w of seen) words.push(w);
  return { words, classes: [...classes].sort().map(classHashes) };
}

/** Message features: the same for every candidate of a message (model.ts scores them once). */
export function messageFeatures(context: MessageContext): Features {
  const b = builder.reset();
  for (const h of context.words) b.word(Kind.Message, h, MESSAGE_VALUE);
  for (const c of context.classes) b.hashed(c.message);
  return b.done();
}

const LEFT_KINDS = [Kind.Left1, Kind.Left2, Kind.Left2, Kind.Left4] as const;
const RIGHT_KINDS = [Kind.Right1, Kind.Right2, Kind.Right2, Kind.Right4] as const;

/**
 * The words on each side, nearest first by distance, and the pairs of neighbouring words nearest
 * the span ("code :", "ist :"): leave-one-set-out, the pairs took exact from 96.5% to 96.6% and
 * invented codes from 119 to 106.
 */
function addWindow(b: Builder, seg: Segment, start: number, end: number) {
  const left = tokenize(seg.fold, start - 160, start, scratch);
  for (let k = 0; k < LEFT_TOKENS && k < left.count; k++) {
    const h = left.hash[left.count - 1 - k]!;
    b.word(LEFT_KINDS[Math.min(k, 3)]!, h);
    b.word(Kind.LeftAny, h);
    if (k + 1 < left.count && k < 4) {
      b.word(Kind.LeftPair, (Math.imul(left.hash[left.count - 2 - k]!, 31) + h + k) >>> 0);
    }
  }
  const right = tokenize(seg.fold, end, end + 100, scratch);
  for (let k = 0; k < RIGHT_TOKENS && k < right.count; k++) {
    const h = right.hash[k]!;
    b.word(RIGHT_KINDS[Math.min(k, 3)]!, h);
    b.word(Kind.RightAny, h);
    if (k + 1 < right.count && k < 3) {
      b.word(Kind.RightPair, (Math.imul(h, 31) + right.hash[k + 1]! + k) >>> 0);
    }
  }
}

/**
 * Keyword classes of the rules and concepts (concepts/) near the span, by side and distance;
 * their concept hashes go to `concepts` for crossing.
 */
function addHits(b: Builder, seg: Segment, start: number, end: number, concepts: number[]) {
  addNear(b, hitsBetween(seg.hits, start - 200, end + 120), start, end, concepts);
  addNear(b, hitsBetween(seg.concepts, start - 200, end + 120), start, end, concepts);
}

function addNear(
  b: Builder,
  hits: readonly { start: number; end: number; cls: string }[],
  start: number,
  end: number,
  concepts: number[],
) {
  for (const h of hits) {
    if (h.end > start && h.start < end) continue;
    const left = h.end <= start;
    const d = left ? start - h.end : h.start - end;
    const bucket = d <= 3 ? 1 : d <= 20 ? 2 : d <= 60 ? 3 : 4;
    const hashes = classHashes(h.cls);
    const side = left ? 0 : 1;
    b.hashed(hashes.feature[side * 5 + bucket]!);
    b.hashed(hashes.feature[side * 5]!);
    addConcept(concepts, hashes.concept[side * 2 + (bucket <= 2 ? 0 : 1)]!);
  }
}

function addConcept(concepts: number[], h: number) {
  if (!concepts.includes(h)) concepts.push(h);
}

/** Every pair of concepts: interactions a linear model cannot otherwise see. */
function addCrosses(b: Builder, concepts: number[]) {
  concepts.sort((x, y) => x - y);
  for (let i = 0; i < concepts.length; i++) {
    for (let j = i + 1; j < concepts.length; j++) {
      b.word(Kind.Cross, (Math.imul(concepts[i]!, 31) + concepts[j]!) >>> 0, CROSS_VALUE);
    }
  }
}

/** Features of the code candidate ranked `rank` by the rules (`best`: the top rule score). */
export function codeFeatures(
  code: ScoredCode,
  rank: number,
  best: number,
  context: MessageContext,
): Features {
  const b = builder.reset();
  b.name('bias');
  b.name('score', Math.max(-3, Math.min(3, code.score / 3)));
  b.name(`rank:${Math.min(rank, 4)}`);
  b.name('gap', Math.max(0, Math.min(3, (best - code.score) / 3)));
  b.name(`scoreb:${Math.max(-6, Math.min(8, Math.round(code.score * 2)))}`);
  const concepts: number[] = [];
  for (const e of code.evidence) {
    const hashes = evidenceHashes(e.reason);
    b.hashed(hashes.feature, e.weight);
    addConcept(concepts, hashes.concept);
  }
  const v = code.value;
  b.name(`shape:${/^\d+$/.test(v) ? 'd' : 'a'}${v.length}`);
  if (code.at !== null) {
    const { segment, start, end } = code.at;
    b.name(`src:${segment.source}`);
    if (end - start !== v.length) b.name('separated');
    addWindow(b, segment, start, end);
    addHits(b, segment, start, end, concepts);
  } else {
    b.name('src:webotp');
  }
  for (const c of context.classes) addConcept(concepts, c.messageConcept);
  addCrosses(b, concepts);
  return b.done();
}

const URL_WORD = /[a-z]{2,20}/g;

function decodePath(s: string) {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** Features of the link candidate ranked `rank` among `count` by the rules. */
export function linkFeatures(
  link: ScoredLink,
  rank: number,
  best: number,
  count: number,
  /** No other link of the message could sign in: every other one is a redirect or ruled out. */
  alone = false,
): Features {
  const b = builder.reset();
  b.name('bias');
  // A redirect is rarely the answer (the real link is usually given too), except when it is the
  // only way in: many mailers wrap every link of a sign-in mail in their click tracker.
  if (link.tracker) b.name(alone ? 'tracker:alone' : 'tracker:beside');
  b.name('score', Math.max(-3, Math.min(3, link.score / 3)));
  b.name(`rank:${Math.min(rank, 4)}`);
  b.name('gap', Math.max(0, Math.min(3, (best - link.score) / 3)));
  b.name(`links:${Math.min(count, 6)}`);
  if (link.tracker) b.name('tracker');
  for (const e of link.evidence) b.hashed(evidenceHashes(e.reason).feature, e.weight);
  let url: URL | null = null;
  try {
    url = new URL(link.value);
  } catch {
    url = null;
  }
  if (url !== null) {
    const labels = url.hostname.toLowerCase().split('.');
    if (labels.length > 2) b.word(Kind.UrlWord, hash32(`sub:${labels[0]}`));
    const path = decodePath(url.pathname).toLowerCase();
    const segments = path.split('/').filter(Boolean);
    b.name(`depth:${Math.min(segments.length, 5)}`);
    for (const w of path.match(URL_WORD) ?? []) b.word(Kind.UrlWord, hash32(w));
    let params = 0;
    for (const [k, value] of url.searchParams) {
      if (++params > 20) break;
      b.word(Kind.QueryKey, hash32(k.toLowerCase().slice(0, 20)));
      b.name(`vl:${Math.min(Math.floor(value.length / 8), 6)}`);
    }
    let longest = 0;
    for (const s of segments) longest = Math.max(longest, s.length);
    b.name(`seg:${Math.min(Math.floor(longest / 6), 8)}`);
    if (url.hash) b.name('hash');
  }
  const at = link.at;
  const seg = at.segment;
  if (at.anchor !== undefined) {
    b.name('anchor');
    if (at.anchor.buttonish) b.name('button');
    if (at.anchor.imageOnly) b.name('image');
    const shown = tokenize(seg.fold, at.start, Math.min(at.end, at.start + 200), scratch);
    for (let k = 0; k < shown.count; k++) b.word(Kind.Anchor, shown.hash[k]!);
  } else b.name(`text:${seg.source}`);
  addWindow(b, seg, at.start, at.end);
  addHits(b, seg, at.start, at.end, []);
  if (seg.text.length > 400 && at.start > seg.text.length * 0.8) b.name('footer');
  return b.done();
}

/** Dot product of features with a weight table. */
export function dot(features: Features, weights: ArrayLike<number>): number {
  let s = 0;
  const { index, value } = features;
  for (let i = 0; i < index.length; i++) s += weights[index[i]!]! * value[i]!;
  return s;
}

/** Candidates the scorer looks at: the rules' best few (the right one is there 99.9% of the time). */
export const CANDIDATES = 8;

export interface Candidate {
  readonly value: string;
  readonly features: Features;
  readonly tracker?: boolean;
  /** Ruled out whatever its score (VETO below). */
  readonly vetoed?: boolean;
  /**
   * The rules chose this link and its own text says "sign in" or "verify" (`Log in`, `ログイン`,
   * `Zaloguj się`): model.ts takes it when the scorer would take no link.
   */
  readonly vouched?: boolean;
}

/**
 * Links that never sign in whatever is said around them: without a one-time token a link opens a
 * page (no expected link of the corpus lacks one but 1 of 1,157); unsubscribe and preference
 * pages; and password resets, which the corpus rules leave out of "sign-in link" (a reset is a
 * separate flow). Other URL words the rules hold against a link (shop, pay, order…) are only
 * features: real sign-in links go through /shop/sso or /pay/signin too.
 */
const VETO =
  /^(no one-time token in the URL$|URL points at '(reset|password|unsubscribe|unsub|optout|opt-out|unsubscribe-all|email-preferences|preferences)')/;

/** A message as the learned scorer sees it. */
export interface ScoredMessage {
  readonly message: Features;
  readonly codes: readonly Candidate[];
  readonly links: readonly Candidate[];
}

/** The rules' analysis of a message, turned into features. */
export function featuresOf(analysis: Analysis): ScoredMessage {
  const context = messageContext(analysis.segments);
  const best = analysis.codes[0]?.score ?? 0;
  const bestLink = analysis.links[0]?.score ?? 0;
  const links = analysis.links.slice(0, CANDIDATES);
  const bare = analysis.segments.length === 1 && saysNothing(analysis.segments[0]!);
  const vetoed = links.map(
    (l) => bare || afterAlert(l) || l.evidence.some((e) => VETO.test(e.reason)),
  );
  const chosen = chooseLink(analysis.links);
  const vouched = (l: ScoredLink) =>
    l === chosen && l.evidence.some((e) => e.weight >= 2 && e.reason.startsWith('link text says'));
  const plain = links.filter((l, i) => !l.tracker && !vetoed[i]).length;
  return {
    message: messageFeatures(context),
    codes: analysis.codes.slice(0, CANDIDATES).map((c, i) => ({
      value: c.value,
      vetoed: joinedUnlabelled(c),
      features: codeFeatures(c, i, best, context),
    })),
    links: links.map((l, i) => ({
      value: l.value,
      tracker: l.tracker,
      vetoed: vetoed[i],
      vouched: vouched(l),
      features: linkFeatures(l, i, bestLink, analysis.links.length, plain === 0),
    })),
  };
}

/**
 * An SMS that is a sender's name and a link, and nothing else ("Orvo: <link>"), says nothing of
 * what the link does: a careful reader could not tell a sign-in link from a receipt or a photo
 * album, so it is no sign-in link (the corpus rule 6). Words of scripts written without spaces
 * count by their characters.
 */
function saysNothing(seg: Segment): boolean {
  if (seg.source !== 'sms' || seg.urls.length === 0) return false;
  let rest = seg.fold;
  for (let i = seg.urls.length - 1; i >= 0; i--) {
    const u = seg.urls[i]!;
    rest = `${rest.slice(0, u.start)} ${rest.slice(u.end)}`;
  }
  let words = 0;
  for (const w of rest.match(/\p{L}+/gu) ?? []) {
    words += /[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\u0e00-\u0eff]/.test(w)
      ? Math.ceil(w.length / 2)
      : 1;
    if (words > 1) return false;
  }
  return true;
}

/**
 * In an SMS, a link right after a security alert ("new sign-in from Chrome on Windows. <link>"),
 * with no word asking to sign in, tap or enter between them, is where the alert sends you to
 * review it, not a sign-in link. Of the corpus's 2,053 expected links none is an SMS link placed
 * so (the five e-mails that are, "…and you'll be signed in. <button>", stay with the scorer).
 */
function afterAlert(link: ScoredLink): boolean {
  const seg = link.at.segment;
  if (seg.source !== 'sms') return false;
  const before = hitsBetween(seg.hits, link.at.start - 160, link.at.start);
  let alert = -1;
  for (let i = before.length - 1; i >= 0; i--) {
    const h = before[i]!;
    if (h.end > link.at.start) continue;
    if (h.cls === 'auth' || h.cls === 'click' || h.cls === 'enter') return false;
    if (h.cls === 'alert') {
      alert = i;
      break;
    }
  }
  return alert >= 0;
}

/**
 * A number the rules joined from groups in table cells of their own (`12 | 34 | 56`) with nothing
 * calling it a code — no code label, no verb asking to type it — is a table of figures, not a code
 * (a weekly digest, a score card), whatever sign-in word stands elsewhere. Of the corpus's 7
 * expected codes built so, every one is labelled.
 */
function joinedUnlabelled(code: ScoredCode): boolean {
  return (
    code.evidence.some((e) => e.reason === 'groups shown in cells of their own') &&
    !code.evidence.some((e) => e.weight > 0 && /^(code label|asks to type)/.test(e.reason))
  );
}

/** The fitted tables: one weight per feature slot, for codes and for links. */
export interface Weights {
  readonly code: Float32Array;
  readonly link: Float32Array;
}
