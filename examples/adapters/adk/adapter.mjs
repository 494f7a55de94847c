#!/usr/bin/env node
// a2a-conform exec adapter around Google's Agent Development Kit for
// TypeScript, @google/adk 2.0.0: a RemoteA2AAgent run by an InMemoryRunner,
// the way ADK's docs put a remote A2A agent behind an ADK app. What ADK does
// by default, and so what this scores:
//
//   - RemoteA2AAgent's agentCard string ("URL to AgentCard" in its type
//     doc) goes to @a2a-js/sdk 0.3's DefaultAgentCardResolver as a base
//     URL: the resolver fetches new URL('.well-known/agent-card.json',
//     base), a relative reference (RFC 3986 §5.2), so given the card URL
//     itself it would fetch /.well-known/.well-known/agent-card.json. The
//     adapter passes what a user who knows that would: the card URL with
//     exactly the part ADK adds taken off, ".well-known/agent-card.json",
//     so https://h/agents/x/ for a card below a path (DISC-001; the slash
//     kept, as relative resolution needs it) and https://h/ at the root. A
//     card URL that does not end so (given directly, DISC-002) goes as it
//     is, and ADK appends the well-known path to it: no agentCard string
//     fetches it, and ADK has no card-path option; one remote agent, so
//     only the first candidate is used;
//   - it builds a 0.3 JSON-RPC client from the card's url/preferredTransport
//     (ClientFactory.createFromAgentCard) and reads nothing of the 1.0
//     supportedInterfaces;
//   - it streams (message/stream) whenever the card does not say
//     capabilities.streaming: false, whatever the caller prefers, and sends
//     message/send otherwise; no probe, no retry, no re-fetch, no signature
//     check;
//   - failures are not thrown: the runner yields an event with errorMessage.
//
// The adapter adds the skill id as params.metadata.skillId and
// message.metadata.skillId through RemoteA2AAgent's beforeRequestCallbacks,
// and reads the task id, state and endpoint from what the library used:
// afterRequestCallbacks see every raw A2A response, and the agent's client
// names its transport's endpoint. Credentials: RemoteA2AAgent takes a
// clientFactory, so the adapter gives it the SDK's own ClientFactory whose
// JSON-RPC transport fetches through the SDK's
// createAuthenticatingFetchWithRetry, one AuthenticationHandler per origin
// called: the credential trust.credentials holds for that origin, the way
// ADK's card declares it; a 401 is noted and not retried. Extensions:
// ADK has no extension option; the same ClientFactory's ClientConfig
// carries an interceptor that activates task.extensions on every call
// (serviceParameters with the SDK's withA2AExtensions: X-A2A-Extensions in
// @a2a-js/sdk 0.3). Neither ADK nor the SDK compares the card's required
// extensions with them: a card requiring one the caller lacks is sent to.
// Client certificates (trust.clientCertificates): that transport's fetch
// sends a call to an origin the request holds one for through an undici
// dispatcher of that origin alone whose TLS presents it (the kit's
// clientCertFetch). ADK fetches the card itself with the global fetch and
// no option, so a card host that wants a client certificate gets none.
// Outcome:
// Replies: each task.replies entry is the next user turn of the same
// session (runner.runAsync again), ADK's way to go on talking to a remote
// agent; unless it answers a remote function call, ADK sends the session's
// turns the agent has not seen (the first message and the reply) as a new
// message, with no taskId (and, against vendor D, no contextId either). Results: contextId, artifacts and the
// status message text from the raw responses; the A2A error's code only
// as @a2a-js/sdk 0.3 writes it in the error text ADK passes on as the
// event's errorMessage ("(Code: N)").
// Outcome: completed only for a task the library saw reach "completed"; interrupted
// for one it left at input-required or auth-required; failed otherwise,
// with ADK's errorMessage.
// cardTrust "authoritative" (the card is used as is) and trustMode
// "unpinned" (nothing is verified) once the card was read.
//
// Glue (../internal-node/contract.mjs): Node 20 ignores HTTPS_PROXY and
// NODE_USE_ENV_PROXY, so an undici ProxyAgent is the global dispatcher;
// ADK logs through winston's console transport to stdout, so stdout other
// than contract messages goes to stderr (winston writes through
// process.stdout.write, which the shared module points at stderr); ADK
// takes seconds to import on a loaded machine, so hello is answered first
// and ADK is imported after it. The fleet CA comes from
// NODE_EXTRA_CA_CERTS, no glue.
//
//   npm ci --prefix examples/adapters/adk
//   a2a-conform run --orchestrator 'exec:node examples/adapters/adk/adapter.mjs'

import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as undici from 'undici';
import {
  artifactJoiner,
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

// ADK is imported as ESM (Node keeps reading stdin and firing timers
// during an ESM import, so a deadline that passes mid-import still gets its
// outcome; a CommonJS require blocks the loop), and not through the "."
// barrel: that loads every integration ADK has (Vertex AI, MikroORM,
// OpenTelemetry exporters, MCP, ...) for 2.0-2.5 s of CPU per process here,
// which counts against the first delegation's deadline (STREAM-002 needs 10
// s of it). RemoteA2AAgent comes from the public "@google/adk/a2a" subpath
// and InMemoryRunner from its own module in the same dist/esm tree (the
// class the barrel re-exports, pinned by the lockfile): 1.1-1.3 s of CPU.
const require = createRequire(import.meta.url);

async function load() {
  const dist = join(dirname(require.resolve('@google/adk/package.json')), 'dist', 'esm');
  // The @a2a-js/sdk client ADK itself resolves (0.3.14, its dependency).
  const sdkClient = createRequire(require.resolve('@google/adk/package.json')).resolve('@a2a-js/sdk/client');
  const [{ RemoteA2AAgent }, { InMemoryRunner }, sdk] = await Promise.all([
    import('@google/adk/a2a'),
    import(pathToFileURL(join(dist, 'runner', 'in_memory_runner.js')).href),
    import(pathToFileURL(sdkClient.replace(/\.cjs$/, '.js')).href),
  ]);
  const adk = { RemoteA2AAgent, InMemoryRunner, sdk };
  return { delegate: (req, signal) => delegate(adk, req, signal) };
}

// delegate runs one delegation with a fetch that presents the client
// certificate the request holds for an origin to that origin alone (the
// kit's clientCertFetch: an undici dispatcher per such origin), closing
// those dispatchers after it.
// agentBase is the agentCard string for a card URL: the URL with the
// ".well-known/agent-card.json" that ADK's resolver resolves against it
// taken off (the slash before it kept), so that ADK fetches the card URL
// byte for byte; any other card URL as it is.
function agentBase(cardUrl) {
  const suffix = '.well-known/agent-card.json';
  try {
    const u = new URL(cardUrl);
    if (u.pathname.endsWith('/' + suffix) && !u.search && !u.hash) return u.href.slice(0, -suffix.length);
  } catch {
    // not a URL: give it to ADK as it is
  }
  return cardUrl;
}

async function delegate(adk, req, signal) {
  const certFetch = clientCertFetch(undici, req);
  try {
    return await delegateWith(adk, req, signal, certFetch);
  } finally {
    certFetch.close();
  }
}

async function delegateWith(adk, req, signal, certFetch) {
  const skill = req.task?.skill || '';
  const cand = req.candidates?.[0];
  if (!cand) return { outcome: 'failed', reason: 'other', detail: 'no candidates' };
  let taskId = '';
  let state = '';
  let sawCard = false;
  const seen = { contextId: '', statusText: '', artifacts: artifactJoiner() };
  let remote;
  const creds = credentialsFor(req, () => remote?.card);
  const { ClientFactory, ClientFactoryOptions, JsonRpcTransportFactory, createAuthenticatingFetchWithRetry } = adk.sdk;
  const fetchImpl = (url, init) => {
    let presented = false;
    return createAuthenticatingFetchWithRetry(certFetch, {
      headers: async () => {
        const h = creds.headers(url);
        presented = Object.keys(h).length > 0;
        return h;
      },
      shouldRetryWithHeaders: async (_req, res) => {
        creds.saw(url, res.status, presented);
        return undefined; // no other credential to try
      },
    })(url, init);
  };
  // task.extensions: an interceptor of the SDK's client (ClientConfig's
  // interceptors, the SDK's hook for per-call options) puts them in the
  // call's serviceParameters with the SDK's withA2AExtensions, which
  // @a2a-js/sdk 0.3 sends as X-A2A-Extensions; ADK passes no options of
  // its own.
  const { ServiceParameters, withA2AExtensions } = adk.sdk;
  const exts = extensions(req);
  const activate = {
    before: async (args) => {
      args.options = { ...args.options, serviceParameters: ServiceParameters.createFrom(args.options?.serviceParameters, withA2AExtensions(...exts)) };
    },
    after: async () => {},
  };
  const clientFactory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl })],
      ...(exts.length ? { clientConfig: { interceptors: [activate] } } : {}),
    }),
  );
  remote = new adk.RemoteA2AAgent({
    name: 'remote_agent',
    description: 'the first candidate',
    agentCard: agentBase(cand),
    clientFactory,
    beforeRequestCallbacks: [
      (_ctx, params) => {
        sawCard = true;
        if (skill) {
          params.metadata = { ...(params.metadata ?? {}), skillId: skill };
          params.message.metadata = { ...(params.message.metadata ?? {}), skillId: skill };
        }
      },
    ],
    afterRequestCallbacks: [
      (_ctx, resp) => {
        if (!resp) return;
        seen.contextId = resp.contextId || seen.contextId;
        if (resp.status?.message) seen.statusText = statusTextOf(resp.status);
        if (resp.kind === 'task') {
          taskId = resp.id || taskId;
          state = resp.status?.state || state;
          seen.artifacts.task(resp);
        } else if (resp.kind === 'status-update') {
          taskId = resp.taskId || taskId;
          state = resp.status?.state || state;
        } else {
          taskId = resp.taskId || taskId;
          if (resp.kind === 'artifact-update') seen.artifacts.update(resp);
          else if (resp.kind === 'message') seen.artifacts.message(resp);
        }
      },
    ],
  });
  const runner = new adk.InMemoryRunner({ agent: remote, appName: 'a2a_conform' });
  const session = await runner.sessionService.createSession({ appName: 'a2a_conform', userId: 'harness' });
  const errors = [];
  // A reply is the next user turn of the same ADK session: ADK sends the
  // turns the remote agent has not seen as a new message and names a task
  // only when answering a remote function call, so a plain question's task
  // is not continued.
  const answers = replies(req);
  try {
    let text = textOf(req);
    for (;;) {
      for await (const ev of runner.runAsync({
        userId: 'harness',
        sessionId: session.id,
        newMessage: { role: 'user', parts: [{ text }] },
        abortSignal: signal,
      })) {
        if (ev.errorMessage) errors.push(ev.errorMessage);
      }
      if (errors.length || state !== 'input-required' || !answers.length) break;
      text = textOfParts(answers.shift().parts);
    }
  } catch (err) {
    errors.push(describe(err));
  }
  const out = {};
  if (remote.card) sawCard = true;
  if (sawCard) Object.assign(out, { cardTrust: 'authoritative', trustMode: 'unpinned' });
  const agent = remote.client?.transport?.endpoint;
  if (agent) out.agent = agent;
  if (skill) out.skill = skill;
  if (taskId) out.taskId = taskId;
  if (state) out.taskState = state;
  Object.assign(out, results(seen));
  if (signal.aborted) return { ...out, outcome: 'failed', reason: 'deadline', detail: errors.join('; ') || 'deadline passed' };
  if (errors.length) {
    const text = errors.join('; ');
    const e = remoteError(new Error(text));
    if (e) out.error = e;
    return { ...out, outcome: 'failed', reason: reasonFor(new Error(text), signal, creds.refusal()), detail: text };
  }
  if (isInterrupted(state) && taskId && agent) {
    return { ...out, outcome: 'interrupted', reason: 'ok', detail: `remote task waits in state "${state}"` };
  }
  if (state === 'completed' && taskId && agent) {
    return { ...out, outcome: 'completed', reason: 'ok', detail: `@google/adk RemoteA2AAgent via ${agent}` };
  }
  return { ...out, outcome: 'failed', reason: 'other', detail: `remote task ${taskId || '(none)'} ended in state "${state || 'unknown'}"` };
}

serve({ name: 'a2a-conform-adapter-adk', version: '@google/adk@2.0.0', load });
