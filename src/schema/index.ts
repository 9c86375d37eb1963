/** The schema: every type file is imported here for its side effect, then the schema is built. */
import { builder } from './builder.ts';
import { refuseNulArguments } from './nul-guard.ts';
import './types/viewer.ts';
import './types/enums.ts';
import './types/challenge-session.ts';
import './types/session-queries.ts';
import './types/session-mutations.ts';
import './types/verdict.ts';
import './types/message.ts';
import './types/sender.ts';
import './types/usage.ts';
import './types/api-key.ts';
import './types/agent.ts';
import './types/webhook.ts';
import './types/authenticator.ts';
import './types/subscriptions.ts';

builder.queryType({ description: 'Reads. Every field needs a credential; each names its scope.' });
builder.mutationType({
  description: 'Changes. Every field needs a credential; each names its scope.',
});
builder.subscriptionType({
  description: 'Live events over WebSocket (graphql-transport-ws) or SSE.',
});

export const schema = builder.toSchema({ sortSchema: true });

refuseNulArguments(schema);
