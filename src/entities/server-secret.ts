/**
 * Secrets the service generates for itself on first start (cookie signing, encryption keys) and
 * that every instance sharing the database must agree on.
 */
import { defineEntity, p } from '@mikro-orm/core';

export const ServerSecretSchema = defineEntity({
  name: 'ServerSecret',
  properties: {
    name: p.string().length(100).primary(),
    value: p.text(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

export class ServerSecret extends ServerSecretSchema.class {}
ServerSecretSchema.setClass(ServerSecret);
