/** Every entity the ORM knows, in one list (discovery by reference, never by glob). */
import { Account } from './account.ts';
import { ConsoleSession } from './console-session.ts';
import { ServerSecret } from './server-secret.ts';
import { SocialIdentity } from './social-identity.ts';
import { ThrottleCounter } from './throttle-counter.ts';
import { User } from './user.ts';

export { Account, ConsoleSession, ServerSecret, SocialIdentity, ThrottleCounter, User };

export const entities = [
  Account,
  User,
  ConsoleSession,
  SocialIdentity,
  ThrottleCounter,
  ServerSecret,
];
