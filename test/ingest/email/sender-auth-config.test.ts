/** DNS_SERVERS (issue 21): parsed once at start, refused with a message naming it. */
import { describe, expect, test } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config.ts';

describe('DNS_SERVERS', () => {
  test('unset means the system resolvers; a list keeps each host:port resolver in order', () => {
    expect(loadConfig({}).dnsServers).toEqual([]);
    expect(loadConfig({ DNS_SERVERS: ' 127.0.0.1:5353, [::1]:53,9.9.9.9' }).dnsServers).toEqual([
      '127.0.0.1:5353',
      '[::1]:53',
      '9.9.9.9',
    ]);
  });

  test.each([['resolver.example:53'], ['127.0.0.1:notaport'], [',']])(
    '%s is refused at start with a message naming DNS_SERVERS',
    (value) => {
      expect(() => loadConfig({ DNS_SERVERS: value })).toThrow(ConfigError);
      expect(() => loadConfig({ DNS_SERVERS: value })).toThrow(
        /^DNS_SERVERS: give comma-separated/,
      );
    },
  );
});
