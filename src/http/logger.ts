/**
 * Structured JSON logs (pino). Requests are logged by method, path and id only: query strings can
 * carry claim tokens, and headers carry credentials, so neither is ever written. Anything that
 * might hold a secret, token or code is redacted by path as a second line of defence.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { LoggerOptions } from 'pino';

export function loggerOptions(level: LoggerOptions['level']): LoggerOptions {
  return {
    level,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'req.headers["x-api-key"]',
        'req.headers["x-twilio-signature"]',
        'res.headers["set-cookie"]',
        '*.password',
        '*.token',
        '*.code',
        '*.otp_code',
        '*.secret',
      ],
      censor: '[redacted]',
    },
    serializers: {
      req: (req: FastifyRequest) => ({
        id: req.id,
        method: req.method,
        path: req.url.split('?')[0],
      }),
      res: (res: FastifyReply) => ({ statusCode: res.statusCode }),
    },
  };
}
