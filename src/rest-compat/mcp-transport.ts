/**
 * The hosted MCP tool endpoint at `/mcp`: stateless Streamable HTTP with the MCP SDK. Each POST
 * gets a fresh server and transport (a stateless transport cannot be reused), bound to the
 * caller's principal; no initialize handshake and no `mcp-session-id` are needed.
 *
 * The SDK itself enforces `Accept: application/json, text/event-stream` (406 otherwise) and the
 * JSON content type; credentials (`x-api-key`, or a Bearer access token) are checked before the
 * SDK runs, so a bad one is a 401 with the spec's `WWW-Authenticate`.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { authenticateRequest, revocationSignal } from '../auth/credentials.ts';
import type { Principal } from '../auth/principal.ts';

/** Installs the tools for one request; `revoked` aborts if the credential is revoked meanwhile. */
export type ToolInstaller = (server: McpServer, principal: Principal, revoked: AbortSignal) => void;

export function mcpRoutes(install: ToolInstaller, version: string) {
  return async function mcpPlugin(app: FastifyInstance) {
    app.post('/mcp', { preHandler: authenticateRequest }, async (request, reply) => {
      const server = new McpServer(
        { name: 'latchkey', version },
        {
          capabilities: { tools: {} },
          instructions: 'Open a challenge session, then wait for its verdict.',
        },
      );
      install(server, request.principal!, revocationSignal(request, reply));
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      reply.hijack();
      reply.raw.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(request.raw, reply.raw, request.body);
    });

    // Stateless: there is no server-initiated stream to GET and no session to DELETE.
    const notAllowed = async (_request: FastifyRequest, reply: FastifyReply) =>
      reply
        .status(405)
        .header('allow', 'POST')
        .send({
          jsonrpc: '2.0',
          error: { code: -32000, message: 'Method not allowed.' },
          id: null,
        });
    app.get('/mcp', notAllowed);
    app.delete('/mcp', notAllowed);
  };
}
