/**
 * The inbound-mail limits of issue 11 as configuration: their defaults (the contract's numbers) and
 * a clear start-up error naming the variable for a bad value.
 */
import { availableParallelism } from 'node:os';
import { describe, expect, test } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config.ts';

describe('inbound mail limits in the configuration', () => {
  test('defaults: 1 MiB messages, 32 SMTP clients, one extraction thread per core, a 2 s budget', () => {
    expect(loadConfig({})).toMatchObject({
      smtpMaxMessageBytes: 1024 * 1024,
      smtpMaxClients: 32,
      extractionThreads: availableParallelism(),
      extractionBudgetMs: 2000,
    });
    expect(
      loadConfig({ SMTP_MAX_CLIENTS: '5', EXTRACTION_THREADS: '3', EXTRACTION_BUDGET_MS: '500' }),
    ).toMatchObject({ smtpMaxClients: 5, extractionThreads: 3, extractionBudgetMs: 500 });
  });

  test.each([
    ['SMTP_MAX_MESSAGE_BYTES', '2097152', /^SMTP_MAX_MESSAGE_BYTES: must be at most 1048576/],
    ['SMTP_MAX_CLIENTS', '0', /^SMTP_MAX_CLIENTS: /],
    ['SMTP_MAX_CLIENTS', 'many', /^SMTP_MAX_CLIENTS: /],
    ['EXTRACTION_THREADS', '0', /^EXTRACTION_THREADS: /],
    ['EXTRACTION_THREADS', '1000', /^EXTRACTION_THREADS: /],
    ['EXTRACTION_BUDGET_MS', '-1', /^EXTRACTION_BUDGET_MS: /],
    ['EXTRACTION_BUDGET_MS', '2s', /^EXTRACTION_BUDGET_MS: /],
  ])('%s=%s stops the start with an error naming it', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(message);
  });
});
