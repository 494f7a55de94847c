#!/usr/bin/env node
// a2a-conform exec adapter around the @a2a-js/sdk 1.3.0 client, used the way
// its README shows and with its defaults (no legacyCompat: the SDK speaks the
// 1.0 protocol it was built for). It exists to score what that SDK does out
// of the box, so it is deliberately not clever:
//
//   - the first candidate's card is fetched with DefaultAgentCardResolver and
//     a client is built by ClientFactory with the JSON-RPC transport (fresh
//     card per delegation, no cache, no cache-bypass headers); the candidate
//     goes to createFromUrl(cardUrl, ''), the form the SDK documents for a
//     full card URL, so it is fetched byte for byte (a card below a path or
//     given directly as well as a well-known one at the root);
//   - the task's message (0.3 shape in the request) is turned into the SDK's
//     1.0 Message with the SDK's own Message.fromJSON and sent with
//     sendMessage, or sendMessageStream when task.preferStreaming is set and
//     the card says streaming; the skill id goes in params.metadata.skillId
//     and message.metadata.skillId;
//   - the next candidate is tried only when a card cannot be fetched or used,
//     or the endpoint cannot be reached;
//   - trust.credentials go to the SDK's own auth hook,
//     createAuthenticatingFetchWithRetry, with one AuthenticationHandler per
//     origin called: the credential issued for that origin, presented the
//     way the card's (1.0-shaped) securitySchemes say; a 401 is noted by
//     the handler and not retried;
//   - task.extensions (the extensions the caller implements) go on every
//     send as the SDK's own service parameter, withA2AExtensions (the SDK
//     names the header by the wire version: A2A-Extensions for 1.0); the
//     SDK does not compare them with the card's required extensions, and
//     neither does the adapter;
//   - when the task pauses at input-required and task.replies has an
//     answer left, the answer goes as the next message through the same
//     client method, carrying the task's taskId and contextId (the SDK's
//     Message has both fields; it keeps no conversation state itself);
//   - the outcome is completed, interrupted (a task the SDK returns at
//     input-required or auth-required with no answer left) or failed with
//     what the SDK returned, with the task's contextId, its artifacts
//     (summarised by ../internal-node/contract.mjs from the SDK's own
//     toJSON of each Task, Artifact and Message), the text of its last
//     status message, and the A2A error the SDK threw (envelopeCode, and
//     an ErrorInfo reason in its data); cardTrust "authoritative",
//     trustMode "unpinned" (createFromUrl verifies no signature).
//
// HTTP goes through undici's fetch with a ProxyAgent for network.proxy (or an
// Agent dialling network.resolve) that trusts trust.caFile on top of Node's
// roots; the fetchImpl the SDK is given picks the dispatcher by the origin
// of the URL called, and the one for an origin the request holds a client
// certificate for (trust.clientCertificates) presents it in the TLS
// handshake: that origin alone gets it. Install with `npm ci --prefix examples/adapters/a2a-js`, then:
//
//   a2a-conform run --orchestrator 'exec:node examples/adapters/a2a-js/adapter.mjs'

import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { rootCertificates } from 'node:tls';
import { createRequire } from 'node:module';
import { Agent, ProxyAgent, buildConnector, fetch as undiciFetch } from 'undici';
import { Artifact, Message, Role, Task, taskStateToJSON } from '@a2a-js/sdk';
import {
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  ServiceParameters,
  createAuthenticatingFetchWithRetry,
  withA2AExtensions,
} from '@a2a-js/sdk/client';
import { artifactJoiner, continuation, extensions, remoteError, replies, results, statusTextOf } from '../internal-node/contract.mjs';

const NAME = 'a2a-conform-adapter-a2a-js';
const CONTRACT = 1;
const MARGIN_MS = 500; // kept back from deadlineMs so the outcome is written in time

const require = createRequire(import.meta.url);
const SDK_VERSION = (() => {
  try {
    return require('@a2a-js/sdk/package.json').version;
  } catch {
    return '1.3.0';
  }
})();

// Dispatchers built so far, keyed by CA file, proxy and client
// certificate; reset closes them.
let dispatchers = new Map();

// dispatcherFor returns the undici dispatcher for calls to url: the
// request's proxy (or network.resolve) and trust.caFile, and, when the
// request holds a client certificate for url's origin
// (trust.clientCertificates), that certificate in the TLS options of a
// dispatcher used for that origin alone, so no other host's handshake sees
// it (an application would do the same: an undici Agent per mTLS origin).
function dispatcherFor(req, url) {
  const caFile = req.trust?.caFile ?? '';
  const proxy = req.network?.proxy ?? '';
  let origin = '';
  try {
    origin = new URL(String(url)).origin;
  } catch {
    // not a URL: no certificate is held for it
  }
  const held = req.trust?.clientCertificates?.[origin];
  const mine = held?.certFile && held?.keyFile ? held : undefined;
  const key = `${caFile}\0${proxy}\0${mine ? `${origin}\0${mine.certFile}\0${mine.keyFile}` : ''}`;
  let d = dispatchers.get(key);
  if (d) return d;
  const tls = { ca: [...rootCertificates] };
  if (caFile) tls.ca.push(readFileSync(caFile, 'utf8'));
  if (mine) Object.assign(tls, { cert: readFileSync(mine.certFile), key: readFileSync(mine.keyFile) });
  if (proxy) {
    d = new ProxyAgent({ uri: proxy, requestTls: tls });
  } else {
    // No proxy: dial host names through network.resolve, keeping the name
    // for SNI and certificate checks.
    const resolve = req.network?.resolve ?? {};
    const connector = buildConnector(tls);
    d = new Agent({
      connect(opts, cb) {
        const port = opts.port || (opts.protocol === 'https:' ? '443' : '80');
        const to = resolve[`${opts.hostname}:${port}`];
        if (!to) return connector(opts, cb);
        const i = to.lastIndexOf(':');
        return connector({ ...opts, hostname: to.slice(0, i), port: to.slice(i + 1), servername: opts.servername || opts.hostname }, cb);
      },
    });
  }
  dispatchers.set(key, d);
  return d;
}

async function reset() {
  const old = dispatchers;
  dispatchers = new Map();
  await Promise.allSettled([...old.values()].map((d) => d.close()));
}

// toSdkMessage turns the request's message (0.3 shape: kind parts, role
// "user") into the SDK's 1.0 Message through the SDK's own decoder.
function toSdkMessage(m, skill) {
  const parts = (m.parts ?? []).map((p) => {
    const out = {};
    if (p.metadata) out.metadata = p.metadata;
    const kind = p.kind ?? p.type;
    if (kind === 'text' || typeof p.text === 'string') out.text = p.text;
    else if (kind === 'data' || p.data !== undefined) out.data = p.data;
    else if (kind === 'file' || p.file) {
      const f = p.file ?? {};
      if (f.uri) out.url = f.uri;
      if (f.bytes) out.raw = f.bytes;
      if (f.mimeType) out.mediaType = f.mimeType;
      if (f.name) out.filename = f.name;
    }
    return out;
  });
  const role = m.role === 'agent' || m.role === 'ROLE_AGENT' ? 'ROLE_AGENT' : 'ROLE_USER';
  const json = {
    messageId: m.messageId || `m-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`,
    role,
    parts,
  };
  if (m.contextId) json.contextId = m.contextId;
  if (m.taskId) json.taskId = m.taskId;
  const metadata = { ...(m.metadata ?? {}) };
  if (skill) metadata.skillId = skill;
  if (Object.keys(metadata).length) json.metadata = metadata;
  const msg = Message.fromJSON(json);
  if (msg.role === 0) msg.role = Role.ROLE_USER;
  return msg;
}

function stateWord(s) {
  if (s === undefined || s === null) return '';
  const w = typeof s === 'number' ? taskStateToJSON(s) : String(s);
  return w.replace(/^TASK_STATE_/, '').toLowerCase().replace(/_/g, '-');
}

// unreachable: the endpoint was never reached (DNS, dial, proxy, TLS).
function unreachable(err) {
  return err instanceof TypeError && /fetch failed/i.test(err.message);
}

function describe(err) {
  let s = err?.message ?? String(err);
  const code = err?.envelopeCode ?? err?.code;
  if (typeof code === 'number' && !s.includes(String(code))) s += ` (code ${code})`;
  if (err?.cause?.message && !s.includes(err.cause.message)) s += `: ${err.cause.message}`;
  return s;
}

function reasonFor(err, signal, refusal) {
  if (signal.aborted || err?.name === 'TimeoutError' || err?.name === 'AbortError') return 'deadline';
  if ((err?.envelopeCode ?? err?.code) === -32601) return 'endpoint-not-a2a';
  // The transport throws the JSON-RPC error of a 401 body and drops the
  // status; the auth handler saw the response, so it tells.
  if (refusal) return refusal;
  // -32009 from the agent: it serves no version the SDK speaks.
  if (err?.name === 'VersionNotSupportedError') return 'version-mismatch';
  return 'other';
}

// noTransport: ClientFactory found no interface it speaks on the card (a
// 0.3-only card has no supportedInterfaces; the SDK, without legacyCompat,
// reads nothing else). The SDK throws a plain Error with this text.
function noTransport(err) {
  return /No compatible transport found/.test(err?.message ?? '');
}

// authHeaders: the header the card's security schemes ask for, holding the
// credential cred; none when the card declares no scheme of cred's kind.
function authHeaders(card, cred) {
  for (const s of Object.values(card?.securitySchemes ?? {})) {
    const { $case, value } = s?.scheme ?? {};
    if (cred.scheme === 'bearer' && ($case === 'httpAuthSecurityScheme' || $case === 'oauth2SecurityScheme')) {
      return { Authorization: `Bearer ${cred.value}` };
    }
    if (cred.scheme === 'apiKey' && $case === 'apiKeySecurityScheme' && value?.location === 'header' && value.name) {
      return { [value.name]: cred.value };
    }
  }
  return {};
}

async function delegate(req) {
  const out = {
    contract: CONTRACT,
    id: req.id,
    outcome: 'failed',
    cardTrust: 'authoritative',
    trustMode: 'unpinned',
  };
  if (req.task?.skill) out.skill = req.task.skill;
  const deadline = req.deadlineMs > 0 ? req.deadlineMs : 20000;
  const signal = AbortSignal.timeout(Math.max(deadline - MARGIN_MS, deadline / 2));
  const fail = (reason, detail) => Object.assign(out, { outcome: 'failed', reason, detail });

  let message;
  try {
    for (const cand of req.candidates ?? []) dispatcherFor(req, cand); // an unreadable file fails here, before any call
    message = toSdkMessage(req.task?.message ?? {}, req.task?.skill);
  } catch (err) {
    return fail('other', describe(err));
  }
  const baseFetch = (url, init = {}) => undiciFetch(url, { ...init, dispatcher: dispatcherFor(req, url), signal: init.signal ?? signal });
  // The SDK's auth hook, one handler per origin: the credential issued for
  // the origin of the URL called (none when the caller holds none for it),
  // the way the card in hand declares it.
  const credentials = req.trust?.credentials ?? {};
  let card;
  const refused = new Map(); // origin -> reason, for origins that answered 401
  const fetchImpl = (url, init) => {
    const origin = new URL(String(url)).origin;
    const cred = credentials[origin];
    let presented = false;
    return createAuthenticatingFetchWithRetry(baseFetch, {
      headers: async () => {
        const h = cred ? authHeaders(card, cred) : {};
        presented = Object.keys(h).length > 0;
        return h;
      },
      shouldRetryWithHeaders: async (_req, res) => {
        // 401 to a credential: refused; to none: one was wanted.
        if (res.status === 401) refused.set(origin, presented ? 'auth-rejected' : 'no-credential');
        return undefined; // no other credential to try
      },
    })(url, init);
  };
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl })],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
    }),
  );
  const params = { message };
  if (req.task?.skill) params.metadata = { skillId: req.task.skill };

  const problems = [];
  let spokeNone = false; // a card offered no interface the SDK speaks
  for (const cand of req.candidates ?? []) {
    let client;
    card = undefined;
    try {
      // The card URL as given, with the empty path: createFromUrl's own
      // documented form for a full card URL (new URL('', cand) is cand).
      client = await factory.createFromUrl(cand, '');
      card = client.agentCard;
    } catch (err) {
      problems.push(`${cand}: ${describe(err)}`);
      spokeNone ||= noTransport(err);
      if (signal.aborted) break;
      continue;
    }
    const endpoint = client.transport?.endpoint ?? card?.supportedInterfaces?.[0]?.url;
    const stream = Boolean(req.task?.preferStreaming && card?.capabilities?.streaming);
    out.agent = endpoint;
    let taskId = '';
    let state = '';
    let gotMessage = false;
    const seen = { contextId: '', statusText: '', artifacts: artifactJoiner() };
    // status notes a status: its state and the text of its message.
    const status = (st) => {
      state = stateWord(st?.state) || state;
      if (st?.message) seen.statusText = statusTextOf({ message: Message.toJSON(st.message) });
    };
    const see = (kind, v) => {
      if (!v) return;
      seen.contextId = v.contextId || seen.contextId;
      if (kind === 'task') {
        taskId = v.id || taskId;
        status(v.status);
        seen.artifacts.task(Task.toJSON(v));
      } else if (kind === 'message') {
        gotMessage = true;
        taskId = v.taskId || taskId;
        seen.artifacts.message(Message.toJSON(v));
      } else if (kind === 'statusUpdate') {
        taskId = v.taskId || taskId;
        status(v.status);
      } else if (kind === 'artifactUpdate') {
        taskId = v.taskId || taskId;
        if (v.artifact) seen.artifacts.update({ append: v.append, artifact: Artifact.toJSON(v.artifact) });
      }
    };
    const exts = extensions(req);
    const opts = exts.length ? { signal, serviceParameters: ServiceParameters.create(withA2AExtensions(...exts)) } : { signal };
    const send = async (p) => {
      if (stream) {
        for await (const ev of client.sendMessageStream(p, opts)) {
          see(ev?.payload?.$case, ev?.payload?.value);
        }
      } else {
        const r = await client.sendMessage(p, opts);
        see(r && 'messageId' in r && !('status' in r) ? 'message' : 'task', r);
      }
    };
    const answers = replies(req);
    try {
      await send(params);
      // Each time the task asks, the next answer continues it.
      while (state === 'input-required' && taskId && answers.length) {
        const reply = continuation(answers.shift(), { taskId, contextId: seen.contextId });
        await send({ ...params, message: toSdkMessage(reply, req.task?.skill) });
      }
    } catch (err) {
      if (taskId) out.taskId = taskId;
      if (state) out.taskState = state;
      if (unreachable(err) && !signal.aborted) {
        problems.push(`${endpoint}: ${describe(err)}`);
        delete out.agent;
        delete out.taskId;
        delete out.taskState;
        continue;
      }
      Object.assign(out, results(seen));
      const e = remoteError(err);
      if (e) out.error = e;
      return fail(reasonFor(err, signal, endpoint && refused.get(new URL(endpoint).origin)), describe(err));
    }
    if (taskId) out.taskId = taskId;
    if (state) out.taskState = state;
    Object.assign(out, results(seen));
    if (state === 'completed' || (gotMessage && !state)) {
      return Object.assign(out, {
        outcome: 'completed',
        reason: 'ok',
        detail: `@a2a-js/sdk ${stream ? 'sendMessageStream' : 'sendMessage'} via ${endpoint}`,
      });
    }
    if ((state === 'input-required' || state === 'auth-required') && taskId) {
      // The SDK hands back the task as the agent left it: paused, waiting
      // for the caller.
      return Object.assign(out, { outcome: 'interrupted', reason: 'ok', detail: `remote task waits in state "${state}"` });
    }
    return fail('other', `remote task ended in state "${state || 'unknown'}"`);
  }
  if (signal.aborted) return fail('deadline', [...problems, 'deadline passed'].join('; '));
  if (spokeNone) return fail('version-mismatch', problems.join('; '));
  return fail('other', problems.length ? problems.join('; ') : 'no candidates');
}

function write(obj) {
  return new Promise((resolve) => process.stdout.write(JSON.stringify(obj) + '\n', resolve));
}

async function main() {
  const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of rl) {
    if (!line.trim()) continue;
    let msg;
    try {
      msg = JSON.parse(line);
    } catch (err) {
      process.stderr.write(`skipped a line that is not JSON: ${err.message}\n`);
      continue;
    }
    switch (msg.type) {
      case 'hello':
        await write({ contract: CONTRACT, type: 'hello', name: NAME, version: `@a2a-js/sdk@${SDK_VERSION}` });
        break;
      case 'reset':
        await reset();
        await write({ contract: CONTRACT, type: 'reset', ok: true });
        break;
      case 'delegate': {
        let o;
        try {
          o = await delegate(msg);
        } catch (err) {
          o = { contract: CONTRACT, id: msg.id, outcome: 'failed', reason: 'other', detail: `adapter error: ${describe(err)}` };
        }
        await write(o);
        break;
      }
      default:
        process.stderr.write(`skipped a message of type ${JSON.stringify(msg.type)}\n`);
    }
  }
  await reset();
}

main().catch((err) => {
  process.stderr.write(`a2a-js adapter: ${err?.stack ?? err}\n`);
  process.exit(1);
});
