/**
 * The seven MCP tools, each a mapping onto the same schema operations as /v1. Arguments are
 * wrapped in `input` (`{"arguments": {"input": {...}}}`); a failure is a tool result with
 * `isError: true` whose text starts with the stable error code.
 *
 * Waits: many MCP hosts cancel a tool call after about 60 seconds, so a wait is capped at
 * 50 seconds, reports progress every 10 seconds when the caller sent a progress token, and on
 * timeout says how to resume (call the same tool again with the same session_id).
 *
 * Revocation: a tool call whose credential is revoked while it runs (a wait) ends at once with an
 * `unauthenticated` result, whatever the operation would have answered.
 *
 * Metadata for hosts (decisions.md "MCP hosts"): each tool has a `title`, `annotations` (what it
 * changes, whether it reaches beyond the account) and an `outputSchema` built from the same zod
 * wire shapes as /v1 (shapes.ts); a successful result carries `structuredContent`, which the SDK
 * validates against that schema on the server and again in the host's client. The text content
 * is the same JSON, for hosts that read only text.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { Principal } from '../auth/principal.ts';
import { AppError, isAppError } from '../errors/index.ts';
import { documents } from './documents.ts';
import type { SchemaOperations } from './operations.ts';
import {
  type MessageData,
  messageOut,
  messageSchema,
  nodes,
  type Page,
  type SessionData,
  sessionOut,
  sessionSchema,
  type VerdictData,
  verdictOut,
  verdictSchema,
} from './shapes.ts';

export const MCP_WAIT_CAP_SECONDS = 50;
const PROGRESS_EVERY_MS = 10_000;

const sessionId = z.string().min(1).max(255).describe('The session_id from open_challenge');
const timeout = z
  .number()
  .min(0)
  .max(MCP_WAIT_CAP_SECONDS)
  .optional()
  .describe(`Seconds to wait, at most ${MCP_WAIT_CAP_SECONDS} (default 30)`);
const target = z
  .string()
  .max(2048)
  .optional()
  .describe('The site or app the challenge is for (host name or URL)');

/** What each tool returns (its `outputSchema`): one zod description shared with /v1's shapes. */
export const toolOutputs = {
  open_challenge: sessionSchema.pick({
    session_id: true,
    channel: true,
    agent_id: true,
    expires_at: true,
    number: true,
    inbox_address: true,
    authenticator_id: true,
    next_step: true,
  }),
  provision_number: z.object({
    session_id: z.string(),
    number: z.string().describe('E.164'),
    expires_at: z.string(),
    next_step: z.string(),
  }),
  wait_for_verdict: verdictSchema,
  // One object for the three outcomes (a code; a timeout; a reroute with auto_reroute), since an
  // outputSchema must be a single object type.
  wait_for_otp: z.object({
    otp_code: z.string().nullable().optional().describe('The code, when one arrived'),
    from_number: z.string().nullable().optional(),
    received_at: z.string().nullable().optional(),
    next_step: z.string().optional(),
    verdict: z.literal('timeout').optional().describe('Nothing arrived in time'),
    status: z
      .literal('carrier_retry_required')
      .optional()
      .describe('auto_reroute moved the session'),
    session_id: z.string().optional(),
    new_number: z.string().optional(),
    previous_number: z.string().optional(),
    country: z.literal('US').optional(),
    expires_at: z.string().optional(),
    message: z.string().optional(),
  }),
  get_messages: z.object({ messages: z.array(messageSchema), has_more: z.boolean() }),
  release_number: z.object({ status: sessionSchema.shape.state }),
  list_numbers: z.object({ sessions: z.array(sessionSchema), has_more: z.boolean() }),
} as const;

interface OpenInput {
  channel?: string;
  target?: string;
  require_authenticated_sender?: boolean;
  authenticator_id?: string;
}

type ToolExtra = {
  signal: AbortSignal;
  _meta?: { progressToken?: string | number };
  sendNotification: (notification: {
    method: 'notifications/progress';
    params: Record<string, unknown>;
  }) => Promise<void>;
};

const text = (value: unknown) => ({
  content: [{ type: 'text' as const, text: JSON.stringify(value) }],
  structuredContent: value as Record<string, unknown>,
});
const failure = (error: AppError) => ({
  isError: true,
  content: [{ type: 'text' as const, text: `${error.code}: ${error.message}` }],
});

export function installTools(
  server: McpServer,
  principal: Principal,
  operations: SchemaOperations,
  logUnexpected: (error: unknown) => void,
  revoked: AbortSignal = new AbortController().signal,
) {
  const run = <T>(
    document: keyof typeof documents,
    variables: Record<string, unknown>,
    signal?: AbortSignal,
  ) =>
    operations.run<T>(
      documents[document],
      principal,
      variables,
      signal ? AbortSignal.any([signal, revoked]) : revoked,
    );
  const revokedFailure = () =>
    failure(
      new AppError('unauthenticated', 'The credential was revoked while the request was running'),
    );

  /** Runs a tool body; every failure is an `isError` result, and an unexpected one is masked. */
  const tool = <A>(body: (args: A, extra: ToolExtra) => Promise<unknown>) =>
    (async (args: { input: A }, extra: ToolExtra) => {
      try {
        const result = await body(args.input, extra);
        return revoked.aborted ? revokedFailure() : text(result);
      } catch (error) {
        if (revoked.aborted) return revokedFailure();
        if (isAppError(error)) return failure(error);
        logUnexpected(error);
        return failure(new AppError('internal_error'));
      }
    }) as never;

  /** A wait with progress notifications while it blocks. */
  const waitWithProgress = async (id: string, seconds: number | undefined, extra: ToolExtra) => {
    const wait = Math.min(seconds ?? 30, MCP_WAIT_CAP_SECONDS);
    const token = extra._meta?.progressToken;
    const started = Date.now();
    const timer =
      token === undefined
        ? undefined
        : setInterval(() => {
            const elapsed = Math.round((Date.now() - started) / 1000);
            void extra
              .sendNotification({
                method: 'notifications/progress',
                params: {
                  progressToken: token,
                  progress: elapsed,
                  total: wait,
                  message: `waiting for a verdict (${elapsed}s)`,
                },
              })
              .catch(() => {});
          }, PROGRESS_EVERY_MS);
    try {
      const data = await run<{ waitForVerdict: VerdictData }>(
        'waitForVerdict',
        { id, timeout: wait },
        extra.signal,
      );
      return data.waitForVerdict;
    } finally {
      clearInterval(timer);
    }
  };

  const resumeHint = (tool: string) =>
    `Nothing arrived yet. Call ${tool} again with the same session_id to keep waiting, or get_messages to inspect what arrived, or release_number to close.`;

  server.registerTool(
    'open_challenge',
    {
      title: 'Open a challenge session',
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        // The number or inbox receives messages from the outside world (the app being signed in).
        openWorldHint: true,
      },
      outputSchema: toolOutputs.open_challenge,
      description:
        'Open a challenge session: a phone number (sms_otp) or an inbox (email_otp, magic_link) to receive one sign-in challenge, or totp for a code from an authenticator app the account stored for the target (or give authenticator_id). Authenticators are managed outside MCP.',
      inputSchema: {
        input: z.strictObject({
          channel: z.enum(['sms_otp', 'email_otp', 'magic_link', 'totp']).optional(),
          target,
          authenticator_id: z
            .string()
            .max(255)
            .optional()
            .describe("totp only: which of the account's authenticators"),
          require_authenticated_sender: z
            .boolean()
            .optional()
            .describe(
              'email_otp and magic_link: accept only mail whose sender is authenticated (DMARC pass) and, with a target, from its domain',
            ),
        }),
      },
    },
    tool(async (input: OpenInput) => {
      const data = await run<{ openChallenge: SessionData }>('openChallenge', {
        input: {
          channel: input.channel,
          target: input.target,
          authenticatorId: input.authenticator_id,
          requireAuthenticatedSender: input.require_authenticated_sender,
        },
      });
      const s = sessionOut(data.openChallenge);
      return {
        session_id: s.session_id,
        channel: s.channel,
        agent_id: s.agent_id,
        expires_at: s.expires_at,
        number: s.number,
        inbox_address: s.inbox_address,
        authenticator_id: s.authenticator_id,
        next_step: s.next_step,
      };
    }),
  );

  server.registerTool(
    'provision_number',
    {
      title: 'Get a phone number for an SMS code',
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: true,
      },
      outputSchema: toolOutputs.provision_number,
      description:
        'Alias of open_challenge with channel sms_otp: get a US phone number for an SMS code.',
      inputSchema: { input: z.strictObject({ target }) },
    },
    tool(async (input: { target?: string }) => {
      const data = await run<{ openChallenge: SessionData }>('openChallenge', {
        input: { channel: 'sms_otp', target: input.target },
      });
      const s = data.openChallenge;
      return { session_id: s.id, number: s.number, expires_at: s.expiresAt, next_step: s.nextStep };
    }),
  );

  server.registerTool(
    'wait_for_verdict',
    {
      title: 'Wait for the code or link',
      annotations: {
        // Consumes the verdict it returns, so it is neither read-only nor idempotent.
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: true,
      },
      outputSchema: toolOutputs.wait_for_verdict,
      description: `Wait up to ${MCP_WAIT_CAP_SECONDS} seconds for the session's code, link or passkey request; consumes what it returns. A timeout is not an error.`,
      inputSchema: { input: z.strictObject({ session_id: sessionId, timeout }) },
    },
    tool(async (input: { session_id: string; timeout?: number }, extra) => {
      const verdict = await waitWithProgress(input.session_id, input.timeout, extra);
      const out = verdictOut(verdict);
      return verdict.verdict === 'timeout'
        ? { ...out, next_step: resumeHint('wait_for_verdict') }
        : out;
    }),
  );

  server.registerTool(
    'wait_for_otp',
    {
      title: 'Wait for the SMS code',
      annotations: {
        readOnlyHint: false,
        // With auto_reroute a timeout releases the session's number for a new one.
        destructiveHint: true,
        idempotentHint: false,
        openWorldHint: true,
      },
      outputSchema: toolOutputs.wait_for_otp,
      description:
        'Alias of wait_for_verdict for SMS. With auto_reroute, a timeout moves the session onto a new number and returns status carrier_retry_required.',
      inputSchema: {
        input: z.strictObject({
          session_id: sessionId,
          timeout,
          auto_reroute: z.boolean().optional(),
        }),
      },
    },
    tool(async (input: { session_id: string; timeout?: number; auto_reroute?: boolean }, extra) => {
      const verdict = await waitWithProgress(input.session_id, input.timeout, extra);
      if (verdict.verdict !== 'timeout') {
        return {
          otp_code: verdict.otpCode,
          from_number: verdict.from,
          received_at: verdict.receivedAt,
          next_step: verdict.nextStep,
        };
      }
      if (!input.auto_reroute)
        return { ...verdictOut(verdict), next_step: resumeHint('wait_for_otp') };
      const data = await run<{
        rerouteChallenge: { previousNumber: string; session: SessionData };
      }>('rerouteChallenge', { id: input.session_id });
      const s = data.rerouteChallenge.session;
      return {
        status: 'carrier_retry_required',
        session_id: s.id,
        new_number: s.number,
        previous_number: data.rerouteChallenge.previousNumber,
        country: 'US',
        expires_at: s.expiresAt,
        message:
          'No code arrived in time. This does not establish a carrier fault. The session now has a new number: enter it in the app, request a new code, then call wait_for_otp again.',
      };
    }),
  );

  server.registerTool(
    'get_messages',
    {
      title: "Read a session's messages",
      annotations: {
        // Reading a code consumes it.
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
      outputSchema: toolOutputs.get_messages,
      description:
        "List a session's messages: metadata and parsed codes, never raw bodies. Reading a code consumes it.",
      inputSchema: {
        input: z.strictObject({
          session_id: sessionId,
          after: z.string().max(255).optional(),
          limit: z.number().int().min(1).max(100).optional(),
        }),
      },
    },
    tool(async (input: { session_id: string; after?: string; limit?: number }) => {
      const data = await run<{ messages: Page<MessageData> }>('messages', {
        id: input.session_id,
        first: input.limit ?? 20,
        after: input.after,
      });
      return {
        messages: nodes(data.messages).map(messageOut),
        has_more: data.messages.pageInfo.hasNextPage,
      };
    }),
  );

  server.registerTool(
    'release_number',
    {
      title: 'Close a session',
      annotations: {
        readOnlyHint: false,
        // The number or inbox is released and cannot be had back.
        destructiveHint: true,
        idempotentHint: true,
        openWorldHint: false,
      },
      outputSchema: toolOutputs.release_number,
      description: 'Close a session and release its number or inbox.',
      inputSchema: { input: z.strictObject({ session_id: sessionId }) },
    },
    tool(async (input: { session_id: string }) => {
      const data = await run<{ closeChallenge: { status: string } }>('closeChallenge', {
        id: input.session_id,
      });
      return { status: data.closeChallenge.status };
    }),
  );

  server.registerTool(
    'list_numbers',
    {
      title: 'List active sessions',
      annotations: {
        readOnlyHint: true,
        openWorldHint: false,
      },
      outputSchema: toolOutputs.list_numbers,
      description:
        "List the account's unexpired active sessions. When has_more is true, call again with the last session_id as after.",
      inputSchema: {
        input: z.strictObject({
          after: z.string().max(255).optional(),
          limit: z.number().int().min(1).max(100).optional(),
        }),
      },
    },
    tool(async (input: { after?: string; limit?: number }) => {
      const data = await run<{ sessions: Page<SessionData> }>('sessions', {
        first: input.limit ?? 20,
        after: input.after,
      });
      return {
        sessions: nodes(data.sessions).map(sessionOut),
        has_more: data.sessions.pageInfo.hasNextPage,
      };
    }),
  );
}
