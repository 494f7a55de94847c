#!/usr/bin/env node
// sdkops.mjs runs every operation the @a2a-js/sdk 1.3.0 Client offers
// against one agent and prints what each returned, as one JSON object on
// stdout. It is the Node half of sdkops_test.go (the operation table in
// docs/tck.md); it judges nothing itself.
//
//   node sdkops.mjs '{"base":"https://agent-d.example","proxy":"http://127.0.0.1:P","caFile":"ca.pem","mode":"jsonrpc","gatedSkill":"fx-hedging"}'
//
// mode picks the client:
//   jsonrpc   the 1.0 client over JSON-RPC (the SDK's defaults)
//   rest      the 1.0 client over HTTP+JSON (RestTransportFactory)
//   compat03  the 0.3 compatibility mode (legacyCompat on the resolver and
//             the JSON-RPC factory), given the card with its 1.0 interfaces
//             left out: the SDK prefers a 1.0 interface of a binding when
//             there is one, and the 0.3 one shares D's URL
//
// Each result is {op, ok, value} or {op, ok:false, error:{name, code,
// status, message, data, metadata}}.

import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import { ProxyAgent, fetch as undiciFetch } from 'undici';
import { Message, TaskState, taskStateToJSON } from '@a2a-js/sdk';
import {
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
} from '@a2a-js/sdk/client';

const cfg = JSON.parse(process.argv[2] ?? '{}');
const ca = [...rootCertificates, readFileSync(cfg.caFile, 'utf8')];
const dispatcher = new ProxyAgent({ uri: cfg.proxy, requestTls: { ca } });
const fetchImpl = (url, init = {}) => undiciFetch(url, { ...init, dispatcher, signal: init.signal ?? AbortSignal.timeout(15000) });

const legacyCompat = cfg.mode === 'compat03' ? { enabled: true } : undefined;
// Both factories get the fetch (the SDK merges them with its defaults by
// binding name); preferredTransports picks the binding under test.
const transports = [new JsonRpcTransportFactory({ fetchImpl, legacyCompat }), new RestTransportFactory({ fetchImpl, legacyCompat })];
const resolver = new DefaultAgentCardResolver({ fetchImpl, legacyCompat });
const factory = new ClientFactory(
  ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
    transports,
    cardResolver: resolver,
    preferredTransports: [cfg.mode === 'rest' ? 'HTTP+JSON' : 'JSONRPC'],
  }),
);

const results = [];
const errorOf = (err) => ({
  name: err?.name,
  code: err?.envelopeCode ?? err?.code,
  status: err?.statusCode,
  message: String(err?.message ?? err) + (err?.cause ? ` (cause: ${err.cause?.message ?? err.cause})` : ''),
  data: err?.data,
  metadata: err?.metadata,
});
async function op(name, fn) {
  try {
    const value = await fn();
    results.push({ op: name, ok: true, value });
    return value;
  } catch (err) {
    results.push({ op: name, ok: false, error: errorOf(err) });
    return undefined;
  }
}

const state = (s) => (s === undefined ? '' : taskStateToJSON(s));
const taskView = (t) => ({ id: t?.id, state: state(t?.status?.state), history: t?.history?.length ?? 0, artifacts: t?.artifacts?.length ?? 0 });
const message = (text, extra = {}) =>
  Message.fromJSON({ messageId: `m-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`, role: 'ROLE_USER', parts: [{ text }], ...extra });
async function collect(iter) {
  const evs = [];
  for await (const ev of iter) {
    const c = ev?.payload?.$case;
    const v = ev?.payload?.value;
    evs.push({ kind: c, state: c === 'task' || c === 'statusUpdate' ? state(v?.status?.state) : undefined });
  }
  return evs;
}

let client;
try {
  let card = await resolver.resolve(cfg.base);
  if (cfg.mode === 'compat03') {
    card = { ...card, supportedInterfaces: (card.supportedInterfaces ?? []).filter((i) => i.protocolVersion !== '1.0') };
  }
  client = await factory.createFromAgentCard(card);
} catch (err) {
  console.log(JSON.stringify({ fatal: errorOf(err) }));
  process.exit(0);
}

await op('getAgentCard', async () => {
  const c = await client.getAgentCard();
  return { name: c.name, description: c.description, extendedAgentCard: Boolean(c.capabilities?.extendedAgentCard), pushNotifications: Boolean(c.capabilities?.pushNotifications) };
});
const sent = await op('sendMessage', async () => taskView((await client.sendMessage({ message: message('reconcile') })).valueOf()));
const taskId = sent?.id;
await op('sendMessageStream', () => collect(client.sendMessageStream({ message: message('stream it') })));
await op('getTask', async () => taskView(await client.getTask({ id: taskId, historyLength: 0 })));
await op('getTask unknown', async () => taskView(await client.getTask({ id: 't-no-such-task' })));
await op('listTasks', async () => {
  const r = await client.listTasks({ pageSize: 5, status: TaskState.TASK_STATE_UNSPECIFIED });
  return { count: r.tasks?.length ?? 0, hasSent: (r.tasks ?? []).some((t) => t.id === taskId), pageSize: r.pageSize };
});
// A partial ListTasksRequest (no status): the SDK's encoder sends
// status "UNRECOGNIZED", which is no TaskState.
await op('listTasks without status', async () => {
  const r = await client.listTasks({ pageSize: 5 });
  return { count: r.tasks?.length ?? 0 };
});
await op('cancelTask completed', async () => taskView(await client.cancelTask({ id: taskId })));
const working = await op('sendMessage returnImmediately', async () =>
  taskView(await client.sendMessage({ message: message('later'), configuration: { returnImmediately: true } })));
await op('cancelTask working', async () => taskView(await client.cancelTask({ id: working?.id })));
const live = await op('sendMessage returnImmediately 2', async () =>
  taskView(await client.sendMessage({ message: message('later 2'), configuration: { returnImmediately: true } })));
await op('resubscribeTask working', () => collect(client.resubscribeTask({ id: live?.id })));
await op('resubscribeTask completed', () => collect(client.resubscribeTask({ id: taskId })));
await op('createTaskPushNotificationConfig', async () => {
  const c = await client.createTaskPushNotificationConfig({ taskId, id: 'c1', url: 'https://hook.example/a2a', token: 'tok' });
  return { id: c.id, taskId: c.taskId, url: c.url };
});
await op('getTaskPushNotificationConfig', async () => {
  const c = await client.getTaskPushNotificationConfig({ taskId, id: 'c1' });
  return { id: c.id, taskId: c.taskId, url: c.url };
});
await op('listTaskPushNotificationConfig', async () => {
  const r = await client.listTaskPushNotificationConfig({ taskId });
  return { count: r.configs?.length ?? 0, ids: (r.configs ?? []).map((c) => c.id) };
});
await op('deleteTaskPushNotificationConfig', async () => {
  await client.deleteTaskPushNotificationConfig({ taskId, id: 'c1' });
  return {};
});
if (cfg.gatedSkill) {
  await op('sendMessage gated skill', async () =>
    taskView(await client.sendMessage({ message: message('hedge', { metadata: { skillId: cfg.gatedSkill } }), metadata: { skillId: cfg.gatedSkill } })));
}
console.log(JSON.stringify({ mode: cfg.mode, protocolVersion: client.protocolVersion, results }));
