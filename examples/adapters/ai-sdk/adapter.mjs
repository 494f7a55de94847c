#!/usr/bin/env node
// a2a-conform exec adapter around the Vercel AI SDK's community A2A
// provider, a2a-ai-provider 0.5.0-alpha.1 with ai 6, used as its README
// shows: the remote agent's card URL is the model id,
// generateText({ model: a2a(cardUrl), prompt }) or streamText(...). What it
// does by default, and so what this scores:
//
//   - every call fetches the card with @a2a-js/sdk 0.3.14's
//     A2AClient.fromCardUrl(modelId) (the card URL as given) and sends to
//     the card's 0.3 `url`; a card with only the 1.0 supportedInterfaces is
//     refused by the SDK; one model, so only the first candidate is used;
//   - generateText sends message/send (blocking, acceptedOutputModes
//     text/plain); streamText sends message/stream, or message/send when the
//     card says no streaming. The adapter calls streamText when the task
//     prefers streaming and generateText otherwise;
//   - the provider builds the A2A message from the prompt (text parts, a
//     fresh messageId, no metadata); its only provider option is contextId,
//     so the skill id is never sent: the vendor runs its default skill, and
//     the outcome names no skill (the wire's "" = default skill);
//   - finishReason is "stop" for a completed task but also for submitted and
//     input-required ones (and always for generateText), so the adapter reads
//     the task state from what the provider hands back: generateText's
//     response.body (the raw A2A result) and, for streamText, the raw chunks
//     (includeRawChunks: true, an observation option: it changes nothing on
//     the wire);
//   - the AI SDK's own retries (maxRetries 2) apply to retryable API call
//     errors; the provider throws plain errors, so nothing is retried. No
//     probe, no re-fetch, no signature check.
//
// The provider does not expose the card, and the adapter must not fetch it
// again, so it learns the endpoint by watching the global fetch the SDK
// calls: the URL of the JSON-RPC POST that returned the task is the agent;
// a card GET answered 2xx means the card was read (then cardTrust
// "authoritative", trustMode "unpinned"). Outcome: completed only for a
// task seen in state "completed"; interrupted for one at input-required or
// auth-required; failed otherwise, with the SDK's error. Credentials: the
// provider calls A2AClient.fromCardUrl(cardUrl) with no options and ignores
// the AI SDK's headers, so trust.credentials cannot be handed to it, nor
// task.extensions (no header can be added to its calls; a required
// extension's -32008 is reported as extension-unsupported).
// Client certificates (trust.clientCertificates): likewise none, for the
// same reason: the SDK fetches with the global fetch and no per-call
// option, so a certificate could reach it only through Node's process-wide
// dispatcher (undici's setGlobalDispatcher with one that routes by origin),
// which is the runtime's setting, not the provider's; the adapter does not
// do that, and the provider presents no certificate (it never reaches a
// 1.0-only card's endpoint either: AUTH-010's D).
// Replies: the provider's only conversation option is
// providerOptions.a2a.contextId, so each task.replies entry goes as the
// next generateText/streamText call in the paused task's context, without
// its taskId: a new message in the context, not a continuation of the
// task. Results: contextId, artifacts and status message text from the
// raw results; the JSON-RPC code from the @a2a-js/sdk 0.3 error text.
//
// Glue (../internal-node/contract.mjs): Node 20 ignores HTTPS_PROXY and
// NODE_USE_ENV_PROXY, so an undici ProxyAgent is the global dispatcher;
// the provider console.logs its params, the card and every stream event,
// so stdout other than contract messages goes to stderr. The fleet CA comes
// from NODE_EXTRA_CA_CERTS, no glue.
//
//   npm ci --prefix examples/adapters/ai-sdk
//   a2a-conform run --orchestrator 'exec:node examples/adapters/ai-sdk/adapter.mjs'

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
  const [{ generateText, streamText }, { a2a }] = await Promise.all([import('ai'), import('a2a-ai-provider')]);
  return { delegate: (req, signal) => delegate({ generateText, streamText, a2a }, req, signal) };
}

function observe(ev, st) {
  if (!ev || typeof ev !== 'object') return;
  st.contextId = ev.contextId || st.contextId;
  if (ev.status?.message) st.statusText = statusTextOf(ev.status);
  if (ev.kind === 'task') {
    st.taskId = ev.id || st.taskId;
    st.state = ev.status?.state || st.state;
    st.artifacts.task(ev);
  } else if (ev.kind === 'status-update') {
    st.taskId = ev.taskId || st.taskId;
    st.state = ev.status?.state || st.state;
  } else if (ev.kind === 'artifact-update' || ev.kind === 'message') {
    st.taskId = ev.taskId || st.taskId;
    if (ev.kind === 'artifact-update') st.artifacts.update(ev);
    else st.artifacts.message(ev);
  }
}

async function delegate({ generateText, streamText, a2a }, req, signal) {
  const cand = req.candidates?.[0];
  if (!cand) return { outcome: 'failed', reason: 'other', detail: 'no candidates' };
  watch.clear();
  const streaming = Boolean(req.task?.preferStreaming);
  const st = { taskId: '', state: '', contextId: '', statusText: '', artifacts: artifactJoiner() };
  // A reply is another call with the provider's one conversation option,
  // providerOptions.a2a.contextId: the provider has no place for a taskId,
  // so the paused task is not continued (the agent sees a new message in
  // its context).
  const answers = replies(req);
  let error;
  try {
    let prompt = textOf(req);
    for (;;) {
      const providerOptions = st.contextId ? { a2a: { contextId: st.contextId } } : undefined;
      if (streaming) {
        const res = streamText({ model: a2a(cand), prompt, providerOptions, abortSignal: signal, includeRawChunks: true, onError() {} });
        for await (const part of res.fullStream) {
          if (part.type === 'raw') observe(part.rawValue, st);
          else if (part.type === 'error') error ??= part.error;
        }
      } else {
        const res = await generateText({ model: a2a(cand), prompt, providerOptions, abortSignal: signal });
        observe(res.response?.body, st);
      }
      if (error || st.state !== 'input-required' || !answers.length) break;
      prompt = textOfParts(answers.shift().parts);
    }
  } catch (err) {
    error ??= err;
  }
  const out = {};
  if (watch.cardRead(cand)) {
    Object.assign(out, { cardTrust: 'authoritative', trustMode: 'unpinned' });
  }
  const posts = watch.requests().filter((r) => r.method === 'POST');
  if (posts.length) out.agent = posts[posts.length - 1].url;
  if (st.taskId) out.taskId = st.taskId;
  if (st.state) out.taskState = st.state;
  Object.assign(out, results(st));
  const remote = error && remoteError(error);
  if (remote) out.error = remote;
  const how = streaming ? 'streamText' : 'generateText';
  // The SDK's A2AClient throws the JSON-RPC error of a 401 body and drops
  // the status; the watched fetch saw it. No credential was presented (the
  // provider has no hook for one), so a 401 says one was wanted.
  const refusal = posts.some((r) => r.status === 401) ? 'no-credential' : undefined;
  if (error) return { ...out, outcome: 'failed', reason: reasonFor(error, signal, refusal), detail: `${how}: ${describe(error)}` };
  if (st.state === 'completed' && st.taskId && out.agent) {
    return { ...out, outcome: 'completed', reason: 'ok', detail: `a2a-ai-provider ${how} via ${out.agent}, no skill id sent (the provider has no place for one)` };
  }
  if (isInterrupted(st.state) && st.taskId && out.agent) {
    return { ...out, outcome: 'interrupted', reason: 'ok', detail: `${how}: remote task waits in state "${st.state}"` };
  }
  return { ...out, outcome: 'failed', reason: 'other', detail: `${how}: remote task ${st.taskId || '(none)'} ended in state "${st.state || 'unknown'}"` };
}

serve({ name: 'a2a-conform-adapter-ai-sdk', version: 'a2a-ai-provider@0.5.0-alpha.1 (ai@6, @a2a-js/sdk@0.3.14)', load });
