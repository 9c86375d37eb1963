import { expect, test } from 'vitest';

test('runs on the Node.js the project brings', () => {
  expect(process.versions.node.split('.')[0]).toBe('24');
});
