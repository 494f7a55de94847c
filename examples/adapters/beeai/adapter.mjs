#!/usr/bin/env node
// a2a-conform exec adapter around the BeeAI framework's remote A2A agent,
// beeai-framework 0.1.30 (A2AAgent from beeai-framework/adapters/a2a), with
// @a2a-js/sdk 0.3.14 as its A2A client (an optional peer dependency that
// the framework leaves to the application). What BeeAI does by default, and
// so what this scores:
//
//   - A2AAgent({ url, agentCardPath, memory }) resolves agentCardPath
//     (default ".well-known/agent-card.json") against url and fetches it
//     with A2AClient.fromCardUrl. Given a card URL, the adapter uses the
//     option BeeAI has for it: url is the candidate's origin and
//     agentCardPath its path (with its query), absolute, so the URL fetched
//     is the candidate byte for byte, whether it is a well-known URL at the
//     root, one below a path (DISC-001) or a card URL given directly
//     (DISC-002); one remote agent, so only the first candidate is used;
//   - it sends to the card's 0.3 `url` (new A2AClient(card)); a card with
//     only the 1.0 supportedInterfaces is refused by the SDK;
//   - it only streams: message/stream, whatever the caller prefers; a card
//     without capabilities.streaming makes the SDK throw before sending;
//   - no probe, no retry, no re-fetch, no signature check.
//
// The adapter gives A2AAgent.run an A2A message (one of the input types it
// takes as is) carrying message.metadata.skillId; BeeAI builds the params
// itself, so params.metadata cannot be set. Task id and state come from
// the run's "update" events (every raw A2A stream event); the endpoint is
// the card's url, the one A2AClient used (the global fetch is watched, not
// changed, to see whether the card GET succeeded when the SDK then refuses
// the card). Outcome: completed only for a
// task seen to reach "completed"; interrupted for one it left at
// input-required or auth-required; failed otherwise, with BeeAI's error.
// Replies: A2AAgent's run options take a taskId and a contextId, which it
// sets on the message it builds from a string input, so each task.replies
// entry goes as agent.run({ input: text }, { taskId, contextId }) on the
// same agent while the task asks (a run without them clears the taskId). Results: contextId, artifacts
// (task, artifact-update chunks, a Message reply) and the status message
// text from the same "update" events; the JSON-RPC error code from the
// @a2a-js/sdk 0.3 error BeeAI wraps (its text's "(Code: N)").
// Credentials: A2AAgent builds its A2AClient with no options (no fetch, no
// headers, no auth handler), so trust.credentials cannot be handed to it;
// nor can task.extensions: it calls sendMessageStream with no options, so
// no A2A-Extensions / X-A2A-Extensions header can be added (a required
// extension's -32008 is reported as extension-unsupported).
// Client certificates (trust.clientCertificates): likewise none, for the
// same reason: the SDK fetches with the global fetch and no per-call
// option, so a certificate could reach it only through Node's process-wide
// dispatcher (undici's setGlobalDispatcher with one that routes by origin),
// which is the runtime's setting, not the library's; the adapter does not
// do that, and BeeAI presents no certificate (it never reaches a 1.0-only
// card's endpoint either: AUTH-010's D).
// cardTrust "authoritative" and trustMode "unpinned" once the card was read.
//
// Install needs --legacy-peer-deps (.npmrc here sets it): without it npm
// tries to satisfy every peer of the framework's many optional provider
// integrations. That leaves zod (which the framework imports without
// declaring it; zod 3, for ZodEffects) and @a2a-js/sdk to this package.json.
//
// Glue (../internal-node/contract.mjs): Node 20 ignores HTTPS_PROXY and
// NODE_USE_ENV_PROXY, so an undici ProxyAgent is the global dispatcher;
// stdout other than contract messages goes to stderr. The fleet CA comes
// from NODE_EXTRA_CA_CERTS, no glue.
//
//   npm ci --prefix examples/adapters/beeai
//   a2a-conform run --orchestrator 'exec:node examples/adapters/beeai/adapter.mjs'

import { randomUUID } from 'node:crypto';
import * as undici from 'undici';
import {
  artifactJoiner,
  describe,
  isInterrupted,
  reasonFor,
  remoteError,
  replies,
  results,
  serve,
  statusTextOf,
  textOf,
  textOfParts,
  useEnvProxy,
  watchFetch,
} from '../internal-node/contract.mjs';

useEnvProxy(undici);
const watch = watchFetch();

async function load() {
  const [{ A2AAgent }, { UnconstrainedMemory }] = await Promise.all([
    import('beeai-framework/adapters/a2a/agents/agent'),
    import('beeai-framework/memory/unconstrainedMemory'),
  ]);
  return { delegate: (req, signal) => delegate(A2AAgent, UnconstrainedMemory, req, signal) };
}

// cardOption splits a card URL into A2AAgent's url (the origin) and
// agentCardPath (the absolute path and query), which BeeAI joins back with
// new URL(agentCardPath, url): the candidate itself. A string that is not
// a URL goes to BeeAI as url, with its default path (and fails there).
function cardOption(cand) {
  try {
    const u = new URL(cand);
    return { url: u.origin, agentCardPath: u.pathname + u.search };
  } catch {
    return { url: cand, agentCardPath: '.well-known/agent-card.json' };
  }
}

async function delegate(A2AAgent, UnconstrainedMemory, req, signal) {
  const skill = req.task?.skill || '';
  const cand = req.candidates?.[0];
  if (!cand) return { outcome: 'failed', reason: 'other', detail: 'no candidates' };
  watch.clear();
  const { url, agentCardPath } = cardOption(cand);
  const agent = new A2AAgent({ url, agentCardPath, memory: new UnconstrainedMemory() });
  const message = {
    kind: 'message',
    role: 'user',
    messageId: req.task?.message?.messageId || randomUUID(),
    parts: [{ kind: 'text', text: textOf(req) }],
    ...(skill ? { metadata: { skillId: skill } } : {}),
  };
  let taskId = '';
  let state = '';
  const seen = { contextId: '', statusText: '', artifacts: artifactJoiner() };
  const see = (ev) => {
    if (!ev) return;
    seen.contextId = ev.contextId || seen.contextId;
    if (ev.kind === 'task') {
      taskId = ev.id || taskId;
      state = ev.status?.state || state;
      if (ev.status?.message) seen.statusText = statusTextOf(ev.status);
      seen.artifacts.task(ev);
    } else {
      taskId = ev.taskId || taskId;
      if (ev.kind === 'status-update') {
        state = ev.status?.state || state;
        if (ev.status?.message) seen.statusText = statusTextOf(ev.status);
      } else if (ev.kind === 'artifact-update') seen.artifacts.update(ev);
      else if (ev.kind === 'message') seen.artifacts.message(ev);
    }
  };
  // A reply goes as text with the run options taskId and contextId:
  // A2AAgent puts them on the message it builds from a string (a run
  // without them starts with no taskId).
  const answers = replies(req);
  let error;
  try {
    let input = message;
    let opts = { signal };
    for (;;) {
      await agent.run({ input }, opts).observe((emitter) => emitter.on('update', ({ value }) => see(value)));
      if (state !== 'input-required' || !answers.length) break;
      input = textOfParts(answers.shift().parts);
      opts = { signal, taskId, contextId: seen.contextId };
    }
  } catch (err) {
    error = err;
  }
  const out = {};
  const card = agent.agentCard;
  // The card counts as read when the GET succeeded, even if the SDK then
  // refused it (a 1.0-only card has no url), as in the other adapters.
  if (card || watch.cardRead(URL.canParse(agentCardPath, url) ? new URL(agentCardPath, url).href : cand)) {
    Object.assign(out, { cardTrust: 'authoritative', trustMode: 'unpinned' });
  }
  if (card?.url) out.agent = card.url;
  if (skill) out.skill = skill;
  if (taskId) out.taskId = taskId;
  if (state) out.taskState = state;
  Object.assign(out, results(seen));
  const remote = error && remoteError(error.errors?.[0] ?? error);
  if (remote) out.error = remote;
  // The SDK's A2AClient throws the JSON-RPC error of a 401 body and drops
  // the status; the watched fetch saw it. No credential was presented (the
  // framework has no hook for one), so a 401 says one was wanted.
  const refusal = watch.requests().some((r) => r.status === 401) ? 'no-credential' : undefined;
  if (error) return { ...out, outcome: 'failed', reason: reasonFor(error, signal, refusal), detail: describe(error) };
  if (state === 'completed' && taskId && out.agent) {
    return { ...out, outcome: 'completed', reason: 'ok', detail: `beeai-framework A2AAgent (message/stream) via ${out.agent}` };
  }
  if (isInterrupted(state) && taskId && out.agent) {
    return { ...out, outcome: 'interrupted', reason: 'ok', detail: `remote task waits in state "${state}"` };
  }
  return { ...out, outcome: 'failed', reason: 'other', detail: `remote task ${taskId || '(none)'} ended in state "${state || 'unknown'}"` };
}

serve({ name: 'a2a-conform-adapter-beeai', version: 'beeai-framework@0.1.30 (@a2a-js/sdk@0.3.14)', load });
