#!/usr/bin/env node
// a2a-conform exec adapter around Mastra's remote A2A agent, @mastra/core
// 1.71.0 (A2AAgent from @mastra/core/a2a), in its default mode
// (protocolVersion "0.3"), or with `--protocol-version 1.0` in its 1.0 mode
// (A2AAgent({ url, protocolVersion: '1.0' })). What Mastra does by default,
// and so what this scores:
//
//   - A2AAgent({ url }) takes the card URL as given (a URL ending in
//     /agent-card.json is fetched as is) and keeps the card for the agent's
//     life; one remote agent, so only the first candidate is used, with a
//     fresh A2AAgent per delegation;
//   - it sends to the card's 0.3 `url` and reads nothing of the 1.0
//     supportedInterfaces, so a 1.0-only card leaves it no endpoint;
//   - generate() sends message/send and, while the task is neither terminal
//     nor interrupted, polls tasks/get; stream() sends message/stream when
//     the card says capabilities.streaming and falls back to generate()
//     otherwise. The adapter calls stream() when the task prefers streaming
//     and generate() otherwise;
//   - the message it builds has one text part (plus a data part for resume
//     data) and no metadata, and A2AAgent has no hook to add any, so the
//     skill id is never sent: the vendor runs its default skill, and the
//     outcome names no skill (the wire's "" = default skill);
//   - no probe, no retry (retries: 0), no re-fetch, no signature check
//     (verifyAgentCard is opt-in).
//
// In the 1.0 mode Mastra reads the card's supportedInterfaces and takes the
// first JSONRPC interface of protocolVersion "1.0" (a card without one is an
// error: "does not advertise a JSON-RPC interface"), sends the 1.0 methods
// (SendMessage, SendStreamingMessage, GetTask) with the header
// A2A-Version: 1.0 and the 1.0 shapes (ROLE_USER, member-named parts), and
// still sends no skill id. getAgentCard() then returns the card as Mastra
// projects it, whose url is that interface's url: the adapter reports it.
//
// Credentials: A2AAgent takes a `fetch` option, which it calls for the card
// and for every A2A request; the adapter's fetch adds the credential
// trust.credentials holds for the origin of the URL fetched, the way the
// card Mastra read declares it (none before the card is read), and notes a
// 401 (Mastra turns any status but 2xx into an error with data.status and
// does not retry a 401).
//
// Client certificates (trust.clientCertificates): through the same fetch
// option, a call to an origin the request holds one for goes through an
// undici dispatcher of that origin alone whose TLS presents it (the
// kit's clientCertFetch); other hosts never see it.
//
// Extensions: Mastra has no extension API and does not read the card's
// required extensions; task.extensions go in A2AAgent's `headers` option
// (every request Mastra makes carries them, the card fetch included), as
// X-A2A-Extensions in the 0.3 mode and A2A-Extensions in the 1.0 mode. A
// card requiring one the caller lacks is sent to, and Mastra's -32008
// error is reported as extension-unsupported.
//
// Replies: Mastra keeps a paused run's taskId and contextId under its
// runId, and resumeGenerate(answer, { runId }) (resumeStream when
// streaming) sends the answer's text as the next message of that task;
// the adapter resumes once per task.replies entry while the task waits at
// input-required. Results: the returned task's contextId, artifacts and
// status message text (a Message reply's parts as one artifact), and the
// code of the MastraA2AError Mastra throws for a JSON-RPC error.
//
// Outcome: completed only when the returned task's state is "completed"
// (Mastra also returns failed, canceled and rejected tasks as results);
// interrupted when it is input-required or auth-required (Mastra stops
// there and returns the task with a resume payload); failed otherwise,
// with Mastra's error. The endpoint is the card's url, the
// one Mastra posts to. cardTrust "authoritative" and trustMode "unpinned"
// once the card was read.
//
// Glue (../internal-node/contract.mjs): Node 20 ignores HTTPS_PROXY and
// NODE_USE_ENV_PROXY, so an undici ProxyAgent is the global dispatcher
// (Mastra calls the global fetch); stdout other than contract messages goes
// to stderr. The fleet CA comes from NODE_EXTRA_CA_CERTS, no glue.
//
//   npm ci --prefix examples/adapters/mastra
//   a2a-conform run --orchestrator 'exec:node examples/adapters/mastra/adapter.mjs'
//   a2a-conform run --orchestrator 'exec:node examples/adapters/mastra/adapter.mjs --protocol-version 1.0'

import * as undici from 'undici';
import {
  clientCertFetch,
  credentialsFor,
  describe,
  extensions,
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
} from '../internal-node/contract.mjs';

useEnvProxy(undici);

// protocolVersion is Mastra's A2AAgent option: "0.3" (its default) unless
// --protocol-version says "1.0".
const flag = process.argv.indexOf('--protocol-version');
const protocolVersion = flag > 0 ? process.argv[flag + 1] : '0.3';
if (protocolVersion !== '0.3' && protocolVersion !== '1.0') {
  process.stderr.write(`--protocol-version ${protocolVersion}: want 0.3 or 1.0\n`);
  process.exit(2);
}

async function load() {
  const { A2AAgent } = await import('@mastra/core/a2a');
  return { delegate: (req, signal) => delegate(A2AAgent, req, signal) };
}

// delegate runs one delegation with a fetch that presents the client
// certificate the request holds for an origin to that origin alone (the
// kit's clientCertFetch: an undici dispatcher per such origin), closing
// those dispatchers after it.
async function delegate(A2AAgent, req, signal) {
  const certFetch = clientCertFetch(undici, req);
  try {
    return await delegateWith(A2AAgent, req, signal, certFetch);
  } finally {
    certFetch.close();
  }
}

async function delegateWith(A2AAgent, req, signal, certFetch) {
  const cand = req.candidates?.[0];
  if (!cand) return { outcome: 'failed', reason: 'other', detail: 'no candidates' };
  let card;
  const creds = credentialsFor(req, () => card);
  const authFetch = async (url, init = {}) => {
    const extra = creds.headers(url);
    const headers = new Headers(init.headers);
    for (const [k, v] of Object.entries(extra)) headers.set(k, v);
    const res = await certFetch(url, { ...init, headers });
    creds.saw(url, res.status, Object.keys(extra).length > 0);
    return res;
  };
  // task.extensions: Mastra has no extension API; its `headers` option (sent
  // with every request it makes) carries them, under the header the
  // protocol version it speaks names.
  const exts = extensions(req);
  const headers = exts.length ? { [protocolVersion === '1.0' ? 'A2A-Extensions' : 'X-A2A-Extensions']: exts.join(',') } : undefined;
  const agent = new A2AAgent({
    url: cand,
    abortSignal: signal,
    fetch: authFetch,
    ...(headers ? { headers } : {}),
    ...(protocolVersion === '1.0' ? { protocolVersion } : {}),
  });
  const streaming = Boolean(req.task?.preferStreaming);
  const runId = crypto.randomUUID();
  // turn sends the prompt, or resumes the run with an answer: Mastra's
  // resumeGenerate/resumeStream send it with the paused task's taskId and
  // contextId, which it kept under runId.
  const turn = async (text, resume) => {
    const opts = { abortSignal: signal, runId };
    if (!streaming) return resume ? agent.resumeGenerate(text, opts) : agent.generate(text, opts);
    const res = resume ? await agent.resumeStream(text, opts) : await agent.stream(text, opts);
    const drain = (async () => {
      for await (const _chunk of res.fullStream) {
        // read as a Mastra caller does; the result comes from getResult
      }
    })();
    return (await Promise.all([res.getResult(), drain]))[0];
  };
  const answers = replies(req);
  let result;
  let error;
  try {
    // The card fetch generate()/stream() start with; they reuse the kept card.
    card = await agent.getAgentCard();
    result = await turn(textOf(req), false);
    while (result?.task?.status?.state === 'input-required' && answers.length) {
      result = await turn(textOfParts(answers.shift().parts), true);
    }
  } catch (err) {
    error = err;
  }
  const out = {};
  if (card) Object.assign(out, { cardTrust: 'authoritative', trustMode: 'unpinned' });
  if (card?.url) out.agent = card.url;
  const task = result?.task;
  const taskId = task?.id || result?.message?.taskId || '';
  const state = task?.status?.state || '';
  if (taskId) out.taskId = taskId;
  if (state) out.taskState = state;
  Object.assign(out, results({
    contextId: task?.contextId || result?.message?.contextId,
    artifacts: task?.artifacts ?? (result?.message ? [{ artifactId: '', parts: result.message.parts }] : undefined),
    statusText: statusTextOf(task?.status),
  }));
  const how = streaming ? 'stream()' : 'generate()';
  if (error) {
    const e = remoteError(error);
    if (e) out.error = e;
    // In its 0.3 mode Mastra posts to the card's url without checking it:
    // a 1.0-only card (no url) ends in fetch's "Failed to parse URL from
    // undefined". The card offered no endpoint Mastra speaks.
    const unspoken = card && !card.url && !signal.aborted;
    return { ...out, outcome: 'failed', reason: unspoken ? 'version-mismatch' : reasonFor(error, signal, creds.refusal()), detail: `${how}: ${describe(error)}` };
  }
  if (state === 'completed' && taskId && out.agent) {
    return { ...out, outcome: 'completed', reason: 'ok', detail: `@mastra/core A2AAgent ${how} via ${out.agent}, no skill id sent (Mastra has no place for one)` };
  }
  if (isInterrupted(state) && taskId && out.agent) {
    return { ...out, outcome: 'interrupted', reason: 'ok', detail: `${how}: remote task waits in state "${state}"` };
  }
  return { ...out, outcome: 'failed', reason: 'other', detail: `${how}: remote task ${taskId || '(none)'} ended in state "${state || 'unknown'}"` };
}

serve({ name: 'a2a-conform-adapter-mastra', version: `@mastra/core@1.71.0 (A2A ${protocolVersion})`, load });
