/**
 * The seven MCP tools, a table of mappings onto the same operation modules as /v1. Arguments are
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
 * wire outputs as /v1 (the operation modules, operations/*.ts); a successful result carries `structuredContent`, which the SDK
 * validates against that schema on the server and again in the host's client. The text content
 * is the same JSON, for hosts that read only text.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type {
  CallToolResult,
  ServerNotification,
  ServerRequest,
  ToolAnnotations,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Principal } from '../auth/principal.ts';
import { CURSOR_MAX_LENGTH, PAGE_SIZE_MAX, PAGE_SIZE_MIN } from '../domain/limits.ts';
import { AppError, isAppError, validate } from '../errors/index.ts';
import type { Ids, Operation } from './operation.ts';
import { closeChallenge } from './operations/close-challenge.ts';
import { sessionSchema } from './operations/fragments.ts';
import { getMessages } from './operations/get-messages.ts';
import { listSessions } from './operations/list-sessions.ts';
import { openChallenge } from './operations/open-challenge.ts';
import { rerouteChallenge } from './operations/reroute-challenge.ts';
import { waitForVerdict } from './operations/wait-for-verdict.ts';
import type { SchemaOperations } from './schema-operations.ts';

export const MCP_WAIT_CAP_SECONDS = 50;
const PROGRESS_EVERY_MS = 10_000;

const sessionId = z.string().min(1).max(255).describe('The session_id from open_challenge');
const timeout = z
  .number()
  .min(0)
  .max(MCP_WAIT_CAP_SECONDS)
  .optional()
  .describe(`Seconds to wait, at most ${MCP_WAIT_CAP_SECONDS} (default 30)`);
const target = openChallenge.input.shape.target.describe(
  'The site or app the challenge is for (host name or URL)',
);
const paging = {
  after: z.string().max(CURSOR_MAX_LENGTH).optional(),
  limit: z.number().int().min(PAGE_SIZE_MIN).max(PAGE_SIZE_MAX).optional(),
};

/** What each tool returns (its `outputSchema`): derived from the operations' wire outputs. */
export const toolOutputs = {
  open_challenge: openChallenge.output.pick({
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
    session_id: openChallenge.output.shape.session_id,
    number: z.string().describe('E.164'),
    expires_at: openChallenge.output.shape.expires_at,
    next_step: openChallenge.output.shape.next_step,
  }),
  wait_for_verdict: waitForVerdict.output,
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
  get_messages: getMessages.output,
  release_number: z.object({ status: sessionSchema.shape.state }),
  list_numbers: listSessions.output,
} as const;

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** What a tool's body may do: run an operation as the caller, and wait with progress. */
interface ToolContext {
  run<D, V extends Record<string, unknown>, I extends z.ZodType, O extends z.ZodType>(
    operation: Operation<D, V, I, O>,
    input: z.output<I>,
    ids?: Ids,
    signal?: AbortSignal,
  ): Promise<z.output<O>>;
}

interface Tool {
  name: keyof typeof toolOutputs;
  register: (
    server: McpServer,
    context: ToolContext,
    guard: (body: () => Promise<Record<string, unknown>>) => Promise<CallToolResult>,
  ) => void;
}

/** A tool: its metadata for hosts, its arguments (wrapped in `input`), output and body. */
function tool<I extends z.ZodObject, N extends keyof typeof toolOutputs>(
  name: N,
  spec: {
    title: string;
    description: string;
    annotations: ToolAnnotations;
    input: I;
    call: (
      input: z.output<I>,
      context: ToolContext,
      extra: Extra,
    ) => Promise<z.output<(typeof toolOutputs)[N]>>;
  },
): Tool {
  return {
    name,
    register: (server, context, guard) =>
      server.registerTool<(typeof toolOutputs)[N], { input: z.ZodObject }>(
        name,
        {
          title: spec.title,
          description: spec.description,
          annotations: spec.annotations,
          inputSchema: { input: spec.input },
          outputSchema: toolOutputs[name],
        },
        // The SDK has checked the arguments against the schema; parsing them once more types them.
        (args, extra) => guard(() => spec.call(validate(spec.input, args.input), context, extra)),
      ),
  };
}

/** A wait with progress notifications while it blocks. */
async function waitWithProgress(
  context: ToolContext,
  id: string,
  seconds: number | undefined,
  extra: Extra,
) {
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
    return await context.run(waitForVerdict, { timeout: wait }, { id }, extra.signal);
  } finally {
    clearInterval(timer);
  }
}

const resumeHint = (name: string) =>
  `Nothing arrived yet. Call ${name} again with the same session_id to keep waiting, or get_messages to inspect what arrived, or release_number to close.`;

/** A value the schema promises for this case (an sms_otp session's number). */
function promised<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`the schema answered no ${what}`);
  return value;
}

export const tools: Tool[] = [
  tool('open_challenge', {
    title: 'Open a challenge session',
    annotations: {
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      // The number or inbox receives messages from the outside world (the app being signed in).
      openWorldHint: true,
    },
    description:
      'Open a challenge session: a phone number (sms_otp) or an inbox (email_otp, magic_link) to receive one sign-in challenge, or totp for a code from an authenticator app the account stored for the target (or give authenticator_id). Authenticators are managed outside MCP.',
    // The operation's input less number_type (MCP opens synthetic numbers only), in MCP's words.
    input: openChallenge.input
      .pick({
        channel: true,
        target: true,
        authenticator_id: true,
        require_authenticated_sender: true,
      })
      .extend({
        target,
        authenticator_id: openChallenge.input.shape.authenticator_id.describe(
          "totp only: which of the account's authenticators",
        ),
        require_authenticated_sender:
          openChallenge.input.shape.require_authenticated_sender.describe(
            'email_otp and magic_link: accept only mail whose sender is authenticated (DMARC pass) and, with a target, from its domain',
          ),
      }),
    call: async (input, context) => {
      const s = await context.run(openChallenge, input);
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
    },
  }),
  tool('provision_number', {
    title: 'Get a phone number for an SMS code',
    annotations: {
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: true,
    },
    description:
      'Alias of open_challenge with channel sms_otp: get a US phone number for an SMS code.',
    input: z.strictObject({ target }),
    call: async (input, context) => {
      const s = await context.run(openChallenge, { channel: 'sms_otp', target: input.target });
      return {
        session_id: s.session_id,
        number: promised(s.number, 'number'),
        expires_at: s.expires_at,
        next_step: s.next_step,
      };
    },
  }),
  tool('wait_for_verdict', {
    title: 'Wait for the code or link',
    annotations: {
      // Consumes the verdict it returns, so it is neither read-only nor idempotent.
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: true,
    },
    description: `Wait up to ${MCP_WAIT_CAP_SECONDS} seconds for the session's code, link or passkey request; consumes what it returns. A timeout is not an error.`,
    input: z.strictObject({ session_id: sessionId, timeout }),
    call: async (input, context, extra) => {
      const verdict = await waitWithProgress(context, input.session_id, input.timeout, extra);
      return verdict.verdict === 'timeout'
        ? { ...verdict, next_step: resumeHint('wait_for_verdict') }
        : verdict;
    },
  }),
  tool('wait_for_otp', {
    title: 'Wait for the SMS code',
    annotations: {
      readOnlyHint: false,
      // With auto_reroute a timeout releases the session's number for a new one.
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    },
    description:
      'Alias of wait_for_verdict for SMS. With auto_reroute, a timeout moves the session onto a new number and returns status carrier_retry_required.',
    input: z.strictObject({
      session_id: sessionId,
      timeout,
      auto_reroute: z.boolean().optional(),
    }),
    call: async (input, context, extra) => {
      const verdict = await waitWithProgress(context, input.session_id, input.timeout, extra);
      if (verdict.verdict !== 'timeout') {
        return {
          otp_code: verdict.otp_code ?? null,
          from_number: verdict.from ?? null,
          received_at: verdict.received_at,
          next_step: verdict.next_step,
        };
      }
      if (!input.auto_reroute) {
        return {
          session_id: verdict.session_id,
          received_at: null,
          verdict: 'timeout',
          next_step: resumeHint('wait_for_otp'),
        };
      }
      const s = await context.run(rerouteChallenge, {}, { id: input.session_id });
      return {
        status: 'carrier_retry_required',
        session_id: s.session_id,
        new_number: s.number,
        previous_number: s.previous_number,
        country: 'US',
        expires_at: s.expires_at,
        message:
          'No code arrived in time. This does not establish a carrier fault. The session now has a new number: enter it in the app, request a new code, then call wait_for_otp again.',
      };
    },
  }),
  tool('get_messages', {
    title: "Read a session's messages",
    annotations: {
      // Reading a code consumes it.
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: false,
    },
    description:
      "List a session's messages: metadata and parsed codes, never raw bodies. Reading a code consumes it.",
    input: z.strictObject({ session_id: sessionId, ...paging }),
    call: (input, context) =>
      context.run(
        getMessages,
        { after: input.after, limit: input.limit },
        { id: input.session_id },
      ),
  }),
  tool('release_number', {
    title: 'Close a session',
    annotations: {
      readOnlyHint: false,
      // The number or inbox is released and cannot be had back.
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: false,
    },
    description: 'Close a session and release its number or inbox.',
    input: z.strictObject({ session_id: sessionId }),
    call: async (input, context) => {
      const closed = await context.run(closeChallenge, {}, { id: input.session_id });
      return { status: closed.status };
    },
  }),
  tool('list_numbers', {
    title: 'List active sessions',
    annotations: { readOnlyHint: true, openWorldHint: false },
    description:
      "List the account's unexpired active sessions. When has_more is true, call again with the last session_id as after.",
    input: z.strictObject(paging),
    call: (input, context) => context.run(listSessions, input),
  }),
];

const text = (value: Record<string, unknown>): CallToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(value) }],
  structuredContent: value,
});
const failure = (error: AppError): CallToolResult => ({
  isError: true,
  content: [{ type: 'text', text: `${error.code}: ${error.message}` }],
});

export function installTools(
  server: McpServer,
  principal: Principal,
  operations: SchemaOperations,
  logUnexpected: (error: unknown) => void,
  revoked: AbortSignal = new AbortController().signal,
) {
  const context: ToolContext = {
    run: async (operation, input, ids = {}, signal) =>
      operation.toWire(
        await operations.run(
          operation.document,
          principal,
          operation.variables(input, ids),
          signal ? AbortSignal.any([signal, revoked]) : revoked,
        ),
      ),
  };
  const revokedFailure = () =>
    failure(
      new AppError('unauthenticated', 'The credential was revoked while the request was running'),
    );

  /** Runs a tool body; every failure is an `isError` result, and an unexpected one is masked. */
  const guard = async (body: () => Promise<Record<string, unknown>>) => {
    try {
      const result = await body();
      return revoked.aborted ? revokedFailure() : text(result);
    } catch (error) {
      if (revoked.aborted) return revokedFailure();
      if (isAppError(error)) return failure(error);
      logUnexpected(error);
      return failure(new AppError('internal_error'));
    }
  };

  for (const entry of tools) entry.register(server, context, guard);
}
