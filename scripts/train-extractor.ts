/**
 * Trains the extractor's learned scorer on the project's corpus and writes its weights to
 * src/extract/learned/weights.bin (committed; test/extract/learned.test.ts trains again
 * and compares, so the file is exactly what this code makes of this corpus).
 *
 * Run: `npm run extractor:train`. Trains on TRAINING_SPLITS (bench/lib/corpus.ts), never on a
 * blind set.
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { analyseRecord, loadSplit, TRAINING_SPLITS } from '../bench/lib/corpus.ts';
import { featuresOf } from '../src/extract/learned/features.ts';
import { encodeWeights } from '../src/extract/learned/model.ts';
import { type TrainingExample, train } from '../src/extract/learned/train.ts';

/** The training examples, in the order TRAINING_SPLITS lists the files and the files their lines. */
export function trainingExamples(): TrainingExample[] {
  const examples: TrainingExample[] = [];
  for (const split of TRAINING_SPLITS) {
    for (const record of loadSplit(split)) {
      examples.push({
        scored: featuresOf(analyseRecord(record)),
        code: record.expect.otp_code,
        link: record.expect.magic_link,
      });
    }
  }
  return examples;
}

/** The weights file this corpus and this code produce. */
export function trainedWeightsFile(): Uint8Array {
  return encodeWeights(train(trainingExamples()));
}

if (import.meta.main) {
  const started = performance.now();
  const bytes = trainedWeightsFile();
  writeFileSync(new URL('../src/extract/learned/weights.bin', import.meta.url), bytes);
  const sha = createHash('sha256').update(bytes).digest('hex');
  console.log(
    `wrote src/extract/learned/weights.bin (${bytes.length} bytes, sha256 ${sha}) from ${TRAINING_SPLITS.length} splits in ${Math.round(performance.now() - started)} ms`,
  );
}
