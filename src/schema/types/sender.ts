/**
 * Sender: who sent an email and whether SPF, DKIM and DMARC vouch for it (issue 21), on messages
 * and email verdicts. Result words are RFC 8601's, as on the wire of /v1 and MCP.
 */
import {
  type AuthResult,
  messageRejections,
  type SenderAuthentication,
} from '../../entities/inbound-message.ts';
import { builder } from '../builder.ts';

const authResults: readonly AuthResult[] = [
  'pass',
  'fail',
  'softfail',
  'neutral',
  'none',
  'temperror',
  'permerror',
  'policy',
];

export const AuthResultEnum = builder.enumType('AuthResult', {
  description:
    'An RFC 8601 result: `temperror` when DNS did not answer in time, `policy` for a DKIM key too weak to count.',
  values: authResults,
});

export const MessageRejectionEnum = builder.enumType('MessageRejection', {
  description:
    'Why a message yielded no verdict: `sender_not_authenticated` when its session requires an authenticated sender (of the target’s domain) and this was not one.',
  values: messageRejections,
});

export const SenderType = builder.objectRef<SenderAuthentication>('Sender').implement({
  description:
    'The `From` of an email and what SPF, DKIM and DMARC said about it; `authenticated` is true exactly when DMARC passes.',
  fields: (t) => ({
    address: t.exposeString('address', {
      nullable: true,
      description: 'The From header’s address; null when the message has none.',
    }),
    domain: t.exposeString('domain', {
      nullable: true,
      description: 'The domain of that address, as written.',
    }),
    authenticated: t.exposeBoolean('authenticated', {
      description: 'True exactly when DMARC passes: the From domain vouches for this message.',
    }),
    spf: t.field({
      type: AuthResultEnum,
      description: 'SPF for the SMTP client’s address and MAIL FROM (or HELO).',
      resolve: (s) => s.spf,
    }),
    dkim: t.field({
      type: AuthResultEnum,
      description: '`pass` when any DKIM signature verifies; else the first signature’s result.',
      resolve: (s) => s.dkim,
    }),
    dmarc: t.field({
      type: AuthResultEnum,
      description: 'DMARC alignment of SPF or DKIM with the From domain.',
      resolve: (s) => s.dmarc,
    }),
  }),
});
