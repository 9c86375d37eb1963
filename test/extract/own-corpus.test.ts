/**
 * The project's own corpus (corpus/): every tuning record must come out exact; each held-out set,
 * frozen before it was evaluated, must stay at or above its target, and must not be edited to fit
 * the extractor (its hash is pinned). The figures themselves are in
 * bench/results/extract-quality.md; the blind first looks in extract-quality-heldout*-first-look.md.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import {
  evaluate,
  familyOf,
  loadSplit,
  SPLITS,
  type Split,
  summarize,
} from '../../bench/lib/corpus.ts';

const FAMILIES = ['promo', 'distractor', 'mixed', 'sms-link', 'html'];

interface HeldOut {
  readonly split: Split;
  /** sha256 of the file as committed before it was evaluated, and that commit. */
  readonly sha256: string;
  readonly frozenIn: string;
  /** What its one blind look gave (records exact of records, codes invented). */
  readonly blind: string;
  readonly minRecords: number;
  readonly minNegatives: number;
  /** Held to this exact rate and at most this many invented codes since its misses were read. */
  readonly target: number;
  readonly maxInvented: number;
  /** Why a set is held below 99% / 0 invented: what is still wrong in it. */
  readonly left?: string;
}

const HELD_OUT: readonly HeldOut[] = [
  {
    split: 'heldout',
    sha256: 'f585b620199ff2a168512d1d3dbe0f071b763c2449cd21f880a3e3f20c713c11',
    frozenIn: 'dc59ac8',
    blind: '54/55',
    minRecords: 50,
    minNegatives: 0,
    target: 0.99,
    maxInvented: 0,
  },
  {
    split: 'heldout2',
    sha256: '25975fed945b38857ff9a8232a098b951c8f89785c26d7d88a3c81d3e9f64ef0',
    frozenIn: '1d91698',
    blind: '28/31, 2 invented',
    minRecords: 30,
    minNegatives: 0,
    target: 0.99,
    maxInvented: 0,
  },
  {
    split: 'heldout3',
    sha256: 'f14bee0a7613481e5d9cd813b0b3c45d8431c6c5cd290d68fd34e65852a91f18',
    frozenIn: '9bcdfe9',
    blind: '25/25',
    minRecords: 25,
    minNegatives: 0,
    target: 0.99,
    maxInvented: 0,
  },
  {
    split: 'heldout4',
    sha256: '3abaa4657e11f0573bc56ef992df3e4a89059b63e3fbb96ca23656cdb438e312',
    frozenIn: 'd6fbec4',
    blind: '119/123, 1 invented',
    minRecords: 100,
    minNegatives: 40,
    target: 0.99,
    maxInvented: 0,
  },
  {
    split: 'heldout5',
    sha256: '71365f6821505f690e597a12d5ab92f9a175fed54519a0f62c3612ced050e34f',
    frozenIn: '1b41877',
    blind: '74/76, 1 invented',
    minRecords: 70,
    minNegatives: 0,
    target: 0.99,
    maxInvented: 0,
  },
  {
    split: 'heldout6',
    sha256: '43a8903bb05c97050a4af1979e75c9a653600392aff15dc146f0686132971b2c',
    frozenIn: '0a1cb9f',
    blind: '62/64',
    minRecords: 60,
    minNegatives: 0,
    target: 0.99,
    maxInvented: 0,
  },
  {
    split: 'heldout7',
    sha256: '401e527fc0bdedfbc3ab6c49a1ba9178ceda903618dd7a130ca78fb1bdfc7290',
    frozenIn: '8134368',
    blind: '56/60, 1 invented',
    minRecords: 60,
    minNegatives: 0,
    target: 0.99,
    maxInvented: 0,
  },
  {
    split: 'heldout8',
    sha256: 'ef72cdd8c854752ce66b371ee99b2bab7ed0756d9b18b6a7277ddf4b8a1d84c3',
    frozenIn: '95f5c98',
    blind: '51/52, 1 invented',
    minRecords: 50,
    minNegatives: 0,
    target: 0.99,
    maxInvented: 0,
  },
  {
    split: 'heldout9',
    sha256: 'eb9e2c5b44958a35c91ea2c0363de234771582605da5a84dfc3b68c4c5b4a347',
    frozenIn: 'c7d9db9',
    blind: '47/47',
    minRecords: 45,
    minNegatives: 0,
    target: 0.99,
    maxInvented: 0,
  },
  {
    split: 'heldout10',
    sha256: '246c3ca248bcbe2bdc3e3e096b69180240d2386f942323caf0d693b90e553077',
    frozenIn: '32e420a',
    blind: '195/206',
    minRecords: 200,
    minNegatives: 70,
    target: 0.99,
    maxInvented: 0,
  },
  {
    split: 'heldout11',
    sha256: '8e3124aada167c852e489afe79fe802e13aebd862b0fc693d6a7917e92716399',
    frozenIn: '9f87a25',
    blind: '78/82, 1 invented',
    minRecords: 80,
    minNegatives: 40,
    target: 0.99,
    maxInvented: 0,
  },
  {
    split: 'heldout12',
    sha256: 'bd333396adddafbb20bd6469e3eae45d7c139b585b905ce73adb0203c6a10b72',
    frozenIn: '3a9d3ca',
    blind: '59/62',
    minRecords: 60,
    minNegatives: 30,
    target: 0.99,
    maxInvented: 0,
  },
  // Sets 13-16: written by two authors who never saw the extractor (corpus/README.md).
  {
    split: 'heldout13',
    sha256: '44697181de1503b4532d863446fee73bc481519ab350253a994ffda6d0864759',
    frozenIn: '7a7c639',
    blind: '189/196, 3 invented',
    minRecords: 190,
    minNegatives: 100,
    target: 0.99,
    maxInvented: 1,
    left: 'email-9869, a building\'s "Codice condominio" in a notice that never speaks of signing in, is taken for the code at 0.739',
  },
  {
    split: 'heldout14',
    sha256: '4d61f79d9e30106694465f117229b134e66093e7b01df4f0754edabe1302c010',
    frozenIn: '9b05b55',
    blind: '182/190, 2 invented',
    minRecords: 185,
    minNegatives: 100,
    target: 0.99,
    maxInvented: 0,
  },
  {
    split: 'heldout15',
    sha256: '171602347ec1e1d49deaf98cd33db0023a315b6265d8a061bce82ef07f9b4834',
    frozenIn: '2f5ad3b',
    blind: '191/200, 7 invented',
    minRecords: 195,
    minNegatives: 100,
    target: 0.99,
    maxInvented: 1,
    left: 'email-2110 asks for "the 4 digits after KX-" and is read as KX4827; email-2134, a calendar invite, has its dial-in PIN taken for a code at 0.444',
  },
  {
    split: 'heldout16',
    sha256: '3c626d38fcc8ef4f1735fc06fa0ae33bedca205e2cefdfa65c55fc1c90ff8a53',
    frozenIn: '6b44aef',
    blind: '176/188, 10 invented',
    minRecords: 185,
    minNegatives: 100,
    target: 0.97,
    maxInvented: 4,
    left: 'two airline booking "confirmation codes" beside flight numbers (the words sign-up codes use too), a parking receipt\'s card "Auth code", a parcel-box 暗証番号, and a Czech code in its own table cells under "váš ověřovací kód je" (Czech "je" is Dutch "je", so it is no copula here)',
  },
  {
    split: 'heldout17',
    sha256: '62298546ba8e6518701a46972cc8eef7c344e2482b7098c052c4c7db0c5005c1',
    frozenIn: '892826b',
    blind: '238/260, 10 invented',
    minRecords: 260,
    minNegatives: 148,
    target: 0.99,
    maxInvented: 0,
  },
  {
    split: 'heldout18',
    sha256: '4f5857f5fab140d69fda01157626467618e60defb700f34bcc2a2faa5659b8ff',
    frozenIn: '892826b',
    blind: '223/260, 23 invented',
    minRecords: 260,
    minNegatives: 149,
    target: 0.99,
    maxInvented: 0,
  },
  {
    split: 'heldout19',
    sha256: '39fb715d9e17365c3556a75fe116f987f3cb399af13bc2cbe6c7231eb584148d',
    frozenIn: '892826b',
    blind: '227/240, 7 invented',
    minRecords: 240,
    minNegatives: 128,
    target: 0.99,
    maxInvented: 0,
  },
  {
    split: 'heldout20',
    sha256: '335fad68dd21a3506659f826cc04385fb551cda06f7cdaebec064af87bae8624',
    frozenIn: '892826b',
    blind: '243/260, 13 invented',
    minRecords: 260,
    minNegatives: 139,
    target: 0.99,
    maxInvented: 0,
  },
  {
    split: 'heldout21',
    sha256: '1a66c7605bf042d85715fdc5478fef592c875a9819ebc8038d0029620d455e80',
    frozenIn: '892826b',
    blind: '233/260, 19 invented',
    minRecords: 260,
    minNegatives: 149,
    target: 0.99,
    maxInvented: 0,
  },
];

const tune = loadSplit('tune');
const heldOut = new Map(HELD_OUT.map((h) => [h.split, loadSplit(h.split)] as const));
const allHeldOut = [...heldOut.values()].flat();

describe('project corpus', () => {
  test('holds at least 150 records, each tagged with one of the five families', () => {
    const own = [...tune, ...allHeldOut];
    expect(own.length).toBeGreaterThanOrEqual(150);
    for (const r of own) expect(FAMILIES).toContain(familyOf(r));
    for (const family of FAMILIES) {
      expect(tune.filter((r) => familyOf(r) === family).length).toBeGreaterThanOrEqual(5);
      expect(
        heldOut.get('heldout')!.filter((r) => familyOf(r) === family).length,
      ).toBeGreaterThanOrEqual(5);
      expect(
        heldOut.get('heldout4')!.filter((r) => familyOf(r) === family).length,
      ).toBeGreaterThanOrEqual(15);
      expect(
        heldOut.get('heldout10')!.filter((r) => familyOf(r) === family).length,
      ).toBeGreaterThanOrEqual(30);
    }
  });

  test('covers the languages the issue names', () => {
    const langs = new Set([...tune, ...allHeldOut].map((r) => r.lang.split('-')[0]));
    for (const lang of [
      'en',
      'de',
      'fr',
      'es',
      'pt',
      'it',
      'nl',
      'pl',
      'tr',
      'ja',
      'zh',
      'ko',
      'ru',
      'ar',
      'hi',
    ]) {
      expect(langs).toContain(lang);
    }
  });

  test.each(tune.map((r) => [`${r.id} (${familyOf(r)}, ${r.lang})`, r] as const))(
    'tuning record %s yields exactly the expected code and link',
    (_name, record) => {
      const [outcome] = evaluate([record]);
      expect({
        otp_code: outcome!.verdict.otp_code,
        magic_link: outcome!.verdict.magic_link,
      }).toEqual(record.expect);
    },
  );

  test.each(HELD_OUT.map((h) => [h.split, h] as const))(
    'held-out set %s is the file frozen before it was evaluated',
    (_name, h) => {
      const sha = createHash('sha256').update(readFileSync(SPLITS[h.split])).digest('hex');
      expect(sha, `${h.split} as committed in ${h.frozenIn}`).toBe(h.sha256);
    },
  );

  test.each(HELD_OUT.map((h) => [`${h.split} (blind ${h.blind})`, h] as const))(
    'held-out set %s holds its target',
    (_name, h) => {
      const s = summarize(evaluate(heldOut.get(h.split)!));
      expect(s.records).toBeGreaterThanOrEqual(h.minRecords);
      expect(s.negatives).toBeGreaterThanOrEqual(h.minNegatives);
      expect(s.exactRate, h.left).toBeGreaterThanOrEqual(h.target);
      expect(s.invented, h.left).toBeLessThanOrEqual(h.maxInvented);
    },
  );

  test('the shared development corpus is at least 99.5% exact and invents no code', () => {
    const s = summarize(evaluate(loadSplit('dev')));
    expect(s.records).toBeGreaterThan(0);
    expect(s.exactRate).toBeGreaterThanOrEqual(0.995);
    expect(s.invented).toBe(0);
  });
});
