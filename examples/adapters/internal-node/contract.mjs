// Shared by the framework adapters (adk/, beeai/, mastra/, ai-sdk/): the
// driver-contract loop and the little network glue Node 20 needs. It imports
// nothing outside Node itself, so it resolves from any adapter directory; the
// adapter hands it its own pinned undici.
//
// What it does, and why:
//
//   - stdout is the NDJSON channel. Frameworks log there (ADK's winston
//     console transport, a2a-ai-provider's console.log of every event), so
//     the first thing serve() does is keep the real process.stdout.write for
//     contract messages and send every other write to stdout to stderr.
//   - hello is answered as soon as it arrives, and the framework is
//     imported (load) after that, so a framework that takes seconds to
//     import does not miss the driver's 2 s hello wait. Run with
//     --startup-grace, the driver says so (A2A_CONFORM_STARTUP_GRACE_MS):
//     then the import comes first and hello is answered when it is done
//     (or a second before the grace runs out), which keeps the import out
//     of the first deadline.
//   - each delegation gets an AbortSignal that fires MARGIN_MS before
//     deadlineMs, and the loop answers "failed"/"deadline" itself if the
//     framework has not returned by then (not every framework honours a
//     signal), so every request gets an outcome. Without a startup grace
//     the first delegation's deadline includes the framework's import: the
//     harness sends it right after the hello answer.
//   - the proxy: the exec driver sets HTTPS_PROXY and NODE_USE_ENV_PROXY=1,
//     but Node before 24 ignores both (on Node 20.20.2 a plain
//     fetch('https://agent-b.example/...') with them set fails with
//     "getaddrinfo ENOTFOUND agent-b.example"). useEnvProxy installs an
//     undici ProxyAgent for HTTPS_PROXY as the global dispatcher, which is
//     what the built-in fetch of Node 20 consults. The fleet CA needs no
//     glue: NODE_EXTRA_CA_CERTS, also set by the driver, is honoured by
//     Node's TLS, ProxyAgent tunnels included.

import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';

const CONTRACT = 1;
const MARGIN_MS = 500; // kept back from deadlineMs so the outcome is written in time (as a2a-js does)

const realWrite = process.stdout.write.bind(process.stdout);

// claimStdout sends every write to stdout but ours to stderr.
function claimStdout() {
  process.stdout.write = (chunk, encoding, cb) => process.stderr.write(chunk, encoding, cb);
}

// answeredAt is when the last answer was written: the harness sends the
// next request only after reading it, so no request can be older.
let answeredAt = performance.now();
// blockedUntil is when a framework import that blocked the event loop (a
// synchronous require: more than 200 ms before load() returned) ended.
let blockedUntil = 0;

function send(obj) {
  return new Promise((resolve) =>
    realWrite(JSON.stringify(obj) + '\n', () => {
      answeredAt = performance.now();
      resolve();
    }),
  );
}

let proxyAgent;

// useEnvProxy routes the built-in fetch through $HTTPS_PROXY on a Node that
// does not do it by itself (before 24). It returns a short note for the
// adapter's hello version string.
export function useEnvProxy(undici) {
  const proxy = process.env.HTTPS_PROXY || process.env.https_proxy || '';
  const major = Number(process.versions.node.split('.')[0]);
  if (!proxy || (major >= 24 && process.env.NODE_USE_ENV_PROXY === '1')) return;
  proxyAgent = new undici.ProxyAgent({ uri: proxy });
  undici.setGlobalDispatcher(proxyAgent);
  useEnvProxy.reinstall = () => {
    const old = proxyAgent;
    proxyAgent = new undici.ProxyAgent({ uri: proxy });
    undici.setGlobalDispatcher(proxyAgent);
    return old.close().catch(() => {});
  };
}

// watchFetch wraps the global fetch to record, without changing anything,
// the requests a library makes through it: { method, url, status }. It is
// for adapters whose library does not say which card it read or which
// endpoint it posted to. requests() returns those since the last clear().
export function watchFetch() {
  let seen = [];
  const realFetch = globalThis.fetch;
  globalThis.fetch = async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input?.url;
    const rec = { method: (init?.method || input?.method || 'GET').toUpperCase(), url: String(url), status: 0 };
    seen.push(rec);
    const res = await realFetch(input, init);
    rec.status = res.status;
    return res;
  };
  return {
    clear() {
      seen = [];
    },
    requests: () => seen,
    // cardRead: a GET of url answered 2xx.
    cardRead: (url) => seen.some((r) => r.method === 'GET' && r.url === url && r.status >= 200 && r.status < 300),
  };
}

// baseOf returns the base URL of a card URL that ends in the standard
// path (for libraries that take a base URL and append
// .well-known/agent-card.json themselves): the origin for a card at the
// root, the origin and the path before it for a card hosted below a path
// (https://host/agents/x), or the URL unchanged.
export function baseOf(cardUrl) {
  const suffix = '/.well-known/agent-card.json';
  try {
    const u = new URL(cardUrl);
    if (u.pathname.endsWith(suffix) && !u.search) return u.origin + u.pathname.slice(0, -suffix.length);
  } catch {
    // not a URL: give it to the library as it is
  }
  return cardUrl;
}

// describe turns an error (and its causes) into one line.
export function describe(err) {
  const seen = new Set();
  const parts = [];
  for (let e = err; e && !seen.has(e) && parts.length < 4; e = e.cause) {
    seen.add(e);
    const s = e?.message ?? String(e);
    if (s && !parts.some((p) => p.includes(s))) parts.push(s);
    if (typeof e !== 'object') break;
  }
  return parts.join(': ') || 'unknown error';
}

// unspoken matches the errors the frameworks' clients give for a card
// that offers nothing they speak: @a2a-js/sdk 0.3.14's A2AClient for a card
// without the 0.3 url ("... does not contain a valid 'url' ..."), its
// ClientFactory ("No compatible transport found"), Mastra's 1.0 mode ("does
// not advertise a JSON-RPC interface"), and -32009 from the agent.
const unspoken = /does not contain a valid 'url'|No compatible transport found|does not advertise a JSON-RPC interface|-32009|version not supported/i;

// badCard matches a library's own words for a card document it refused as
// invalid (failed validation, not an Agent Card). A card the library merely
// finds nothing to speak to on ("No compatible transport found", or
// @a2a-js/sdk 0.3's "does not contain a valid 'url'", which a valid 1.0-only
// card gets too) is unspoken, not this.
const badCard = /invalid agent card|agent card is invalid|not a valid agent card|failed to validate agent card|agent card (?:failed|fails) validation/i;

// reasonFor maps an error to a reason word: deadline; refusal when given
// (what a 401 meant, from credentialsFor or a watched fetch);
// endpoint-not-a2a for a -32601 (by code or in the text);
// extension-unsupported for a -32008 ExtensionSupportRequired; invalid-card
// for the errors badCard matches; version-mismatch for the errors unspoken
// matches; or other.
export function reasonFor(err, signal, refusal) {
  if (signal?.aborted || err?.name === 'TimeoutError' || err?.name === 'AbortError') return 'deadline';
  if (refusal) return refusal;
  const text = describe(err);
  if (err?.code === -32601 || /-32601|method not found/i.test(text)) return 'endpoint-not-a2a';
  if (err?.code === -32008 || /-32008|extension support required/i.test(text)) return 'extension-unsupported';
  if (badCard.test(text)) return 'invalid-card';
  if (unspoken.test(text)) return 'version-mismatch';
  return 'other';
}

// isInterrupted: the task paused at a state where it waits for the caller.
export function isInterrupted(state) {
  return state === 'input-required' || state === 'auth-required';
}

// originOf is the origin of url as trust.credentials keys it ('' if none).
export function originOf(url) {
  try {
    return new URL(String(url)).origin;
  } catch {
    return '';
  }
}

// credentialHeaders returns the request header the card's security
// schemes ask for, holding the credential cred ({scheme, value}): for
// bearer an HTTP bearer scheme, for apiKey an API key scheme in a header
// (its name), in the 1.0 shape (httpAuthSecurityScheme,
// apiKeySecurityScheme) or the 0.3 one (type http / apiKey); {} when the
// card declares none of cred's kind.
export function credentialHeaders(card, cred) {
  for (const s of Object.values(card?.securitySchemes ?? {})) {
    if (!s || typeof s !== 'object') continue;
    const http = s.httpAuthSecurityScheme ?? (s.type === 'http' ? s : undefined);
    const key = s.apiKeySecurityScheme ?? (s.type === 'apiKey' ? s : undefined);
    if (cred.scheme === 'bearer' && /^bearer$/i.test(http?.scheme ?? '')) return { Authorization: `Bearer ${cred.value}` };
    if (cred.scheme === 'apiKey' && (key?.location ?? key?.in) === 'header' && key?.name) return { [key.name]: cred.value };
  }
  return {};
}

// credentialsFor holds a request's trust.credentials for a framework hook
// that sets headers per request: headers(url) gives the credential issued
// for url's origin, the way card() declares it; saw(url, status,
// presented) notes a 401 (to a credential presented: auth-rejected; to
// none: no-credential), and refusal() says what the last one meant.
export function credentialsFor(req, card) {
  const held = req.trust?.credentials ?? {};
  let refused;
  return {
    headers(url) {
      const cred = held[originOf(url)];
      return cred ? credentialHeaders(card(), cred) : {};
    },
    saw(_url, status, presented) {
      if (status === 401) refused = presented ? 'auth-rejected' : 'no-credential';
    },
    refusal: () => refused,
  };
}

// oauthClientFor returns the OAuth 2.0 client the request holds for url's
// origin (trust.oauth2: {tokenUrl, clientId, clientSecret, scopes}) when
// the card declares a client credentials flow (oauth2SecurityScheme in
// 1.0, type oauth2 in 0.3) whose tokenUrl is exactly the client's: the
// secret may go there and nowhere else. undefined otherwise.
export function oauthClientFor(req, url, card) {
  const client = req.trust?.oauth2?.[originOf(url)];
  if (!client) return undefined;
  for (const s of Object.values(card?.securitySchemes ?? {})) {
    if (!s || typeof s !== 'object') continue;
    const o = s.oauth2SecurityScheme ?? (s.type === 'oauth2' ? s : undefined);
    if (o?.flows?.clientCredentials?.tokenUrl === client.tokenUrl) return client;
  }
  return undefined;
}

// tokenRequest is the client credentials token request (RFC 6749 §4.4.2)
// for client, the client authenticated by HTTP Basic (§2.3.1: id and
// secret form-encoded first): {url, init} for fetch. The answer's
// access_token goes as Authorization: Bearer to the agent.
export function tokenRequest(client) {
  const enc = (v) => encodeURIComponent(v).replace(/%20/g, '+');
  const body = new URLSearchParams({ grant_type: 'client_credentials' });
  if (client.scopes?.length) body.set('scope', client.scopes.join(' '));
  const basic = Buffer.from(`${enc(client.clientId)}:${enc(client.clientSecret)}`).toString('base64');
  return {
    url: client.tokenUrl,
    init: {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json', Authorization: `Basic ${basic}` },
      body: body.toString(),
    },
  };
}

// invalidToken reports whether a 401's WWW-Authenticate says the bearer
// token expired or was revoked (RFC 6750 §3.1 error="invalid_token"): get
// a new token once and retry; a second refusal is final.
export function invalidToken(challenge) {
  return /error="invalid_token"/.test(String(challenge ?? ''));
}

// textOf joins the text parts of the request's message: what a framework
// user hands their agent as the prompt.
export function textOf(req) {
  return (req.task?.message?.parts ?? [])
    .filter((p) => typeof p.text === 'string')
    .map((p) => p.text)
    .join('\n');
}

// helloAnswer is the hello answer: name and version, and what the client
// declares it speaks (the driver contract's hello: bindings "JSONRPC",
// "HTTP+JSON", "GRPC"; protocolVersions "0.3", "1.0"), omitted when not
// given, the harness then reads the wire. A check about a binding the
// client does not declare is not applicable to it.
export function helloAnswer({ name, version, bindings, protocolVersions }) {
  const out = { contract: CONTRACT, type: 'hello', name, version };
  if (bindings?.length) out.bindings = [...bindings];
  if (protocolVersions?.length) out.protocolVersions = [...protocolVersions];
  return out;
}

// serve runs the contract loop. load() is called once, after hello (or at
// the first delegation), and resolves to { delegate(req, signal) ->
// outcome fields, reset?() }. delegate returns the outcome's fields; the
// loop adds contract and id. bindings and protocolVersions, when given, go
// into the hello answer (helloAnswer).
export async function serve({ name, version, load, bindings, protocolVersions }) {
  const hello = helloAnswer({ name, version, bindings, protocolVersions });
  claimStdout();
  const { createInterface } = await import('node:readline');
  let loaded;
  const impl = () =>
    (loaded ??= (async () => {
      const t0 = performance.now();
      const p = load(); // runs synchronously up to its first await
      const t1 = performance.now();
      if (t1 - t0 > 200) blockedUntil = t1;
      return p;
    })());
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
    if (msg.type === 'hello') {
      const importing = impl().catch(() => {}); // errors surface at the first delegation
      await untilGraceEnds(importing);
      await send(hello);
    } else if (msg.type === 'reset') {
      try {
        await (await impl()).reset?.();
        await useEnvProxy.reinstall?.();
      } catch (err) {
        process.stderr.write(`reset: ${describe(err)}\n`);
      }
      await send({ contract: CONTRACT, type: 'reset', ok: true });
    } else if (msg.type === 'delegate') {
      await send({ contract: CONTRACT, id: msg.id, ...(await run(impl, msg)) });
    } else {
      process.stderr.write(`skipped a message of type ${JSON.stringify(msg.type)}\n`);
    }
  }
  // stdin closed. Work abandoned at a deadline may still be sending: give
  // it a moment (the driver allows 1 s) rather than cut a request in half.
  await Promise.race([Promise.allSettled([...abandoned]), new Promise((r) => setTimeout(r, 500))]);
  await proxyAgent?.close().catch(() => {});
  process.exit(0);
}

// untilGraceEnds waits for p while the startup grace the driver gives
// (A2A_CONFORM_STARTUP_GRACE_MS, counted from the process's start) lasts,
// less a second for the hello answer to arrive; without one it waits for
// nothing.
async function untilGraceEnds(p) {
  const graceMs = Number(process.env.A2A_CONFORM_STARTUP_GRACE_MS) || 0;
  const left = graceMs - 1000 - performance.now();
  if (left <= 0) return;
  let timer;
  await Promise.race([p, new Promise((r) => (timer = setTimeout(r, left)))]);
  clearTimeout(timer);
}

// abandoned holds the framework calls still running after their deadline.
const abandoned = new Set();

async function run(impl, req) {
  const deadline = req.deadlineMs > 0 ? req.deadlineMs : 20000;
  // The deadline runs from when the harness sent the request. That is now,
  // unless a framework import blocked the loop after our last answer: then
  // the request may have waited unread, and the last answer is the earliest
  // it can have been sent. (An ESM import keeps the loop running.)
  const sentAt = blockedUntil > answeredAt ? answeredAt : performance.now();
  const budget = Math.max(deadline - MARGIN_MS, deadline / 2) - (performance.now() - sentAt);
  const ctl = new AbortController();
  let timer;
  const late = new Promise((resolve) => {
    timer = setTimeout(() => {
      ctl.abort(new DOMException('deadline', 'TimeoutError'));
      resolve({ outcome: 'failed', reason: 'deadline', detail: `no result from the framework within ${deadline - MARGIN_MS} ms of the request` });
    }, Math.max(budget, 0));
  });
  const work = (async () => {
    try {
      const { delegate } = await impl();
      return await delegate(req, ctl.signal);
    } catch (err) {
      return { outcome: 'failed', reason: reasonFor(err, ctl.signal), detail: `adapter error: ${describe(err)}` };
    }
  })();
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
    if (ctl.signal.aborted) {
      abandoned.add(work);
      work.finally(() => abandoned.delete(work));
    }
  }
}

// ---- Results and conversations (contract 1's optional fields) ----
//
// The summary of an artifact is the one contract.SummarizeArtifact gives
// in Go (docs/driver-contract.md, "Results"): per part its kind and the
// SHA-256 of its content bytes, the text parts joined with nothing
// between. Tested against contract/testdata/artifact-vectors.json.

// canonicalJSON writes a JSON value in its RFC 8785 (JCS) form: object
// keys sorted by UTF-16 code units (what Array.prototype.sort does with no
// comparator), strings and numbers as JSON.stringify writes them, no white
// space.
export function canonicalJSON(v) {
  if (v === null || typeof v !== 'object') {
    if (typeof v === 'number' && !Number.isFinite(v)) throw new Error(`data part: ${v} is not a JSON number`);
    if (v === undefined || typeof v === 'function' || typeof v === 'symbol' || typeof v === 'bigint') throw new Error('data part: not a JSON value');
    return JSON.stringify(v);
  }
  if (Array.isArray(v)) return `[${v.map(canonicalJSON).join(',')}]`;
  const keys = Object.keys(v).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJSON(v[k])}`).join(',')}}`;
}

// base64Bytes decodes standard base64, padded or not, as strictly as Go's
// base64.StdEncoding / RawStdEncoding (which skip only CR and LF).
function base64Bytes(s) {
  const t = String(s).replace(/[\r\n]/g, '');
  const ok = /^[A-Za-z0-9+/]*$/.test(t) ? t.length % 4 !== 1 : /^[A-Za-z0-9+/]*={1,2}$/.test(t) && t.length % 4 === 0;
  if (!ok) throw new Error('file bytes: not base64');
  return Buffer.from(t, 'base64');
}

function digestOf(kind, content) {
  return { kind, sha256: createHash('sha256').update(content).digest('hex') };
}

const str = (v) => typeof v === 'string';

// digestPart reads one A2A part (0.3: kind text/file/data; 1.0: one of
// text, raw, url, data) and returns { digest: {kind, sha256}, text }.
export function digestPart(p) {
  if (!p || typeof p !== 'object') throw new Error('part: not an object');
  if (str(p.text)) return { digest: digestOf('text', Buffer.from(p.text, 'utf8')), text: p.text };
  if (str(p.raw)) return { digest: digestOf('bytes', base64Bytes(p.raw)), text: '' };
  if (str(p.url)) return { digest: digestOf('url', Buffer.from(p.url, 'utf8')), text: '' };
  if (str(p.file?.bytes)) return { digest: digestOf('bytes', base64Bytes(p.file.bytes)), text: '' };
  if (str(p.file?.uri)) return { digest: digestOf('url', Buffer.from(p.file.uri, 'utf8')), text: '' };
  if (p.data !== undefined && p.data !== null) return { digest: digestOf('data', Buffer.from(canonicalJSON(p.data), 'utf8')), text: '' };
  throw new Error('part has no text, raw, url, file or data');
}

// summarizeParts digests parts in order and joins their text:
// { parts: [{kind, sha256}], text }.
export function summarizeParts(parts) {
  const out = { parts: [], text: '' };
  (parts ?? []).forEach((p, i) => {
    let d;
    try {
      d = digestPart(p);
    } catch (err) {
      throw new Error(`parts[${i}]: ${err.message}`);
    }
    out.parts.push(d.digest);
    out.text += d.text;
  });
  return out;
}

// summarizeArtifact summarises one whole A2A artifact (0.3 or 1.0 JSON)
// as the outcome's artifacts entry: artifactId always, name and text only
// when not empty.
export function summarizeArtifact(a) {
  const { parts, text } = summarizeParts(a?.parts);
  const out = { artifactId: str(a?.artifactId) ? a.artifactId : '' };
  if (str(a?.name) && a.name) out.name = a.name;
  out.parts = parts;
  if (text) out.text = text;
  return out;
}

// summarizeMessage summarises a Message reply's parts: one artifact with
// an empty artifactId.
export function summarizeMessage(m) {
  return summarizeArtifact({ artifactId: '', parts: m?.parts ?? [] });
}

// textOfParts joins the text parts of parts with nothing between.
export function textOfParts(parts) {
  return (parts ?? []).filter((p) => str(p?.text)).map((p) => p.text).join('');
}

// statusTextOf is the text of a task status's message (0.3 or 1.0):
// the agent's question at input-required.
export function statusTextOf(status) {
  return textOfParts(status?.message?.parts);
}

// artifactJoiner joins the artifacts of a task and its stream events into
// whole artifacts, in the order each id was first announced: a task's
// artifacts (or a status update's) replace what was known of each id,
// an artifact update appends its parts when it says append, replaces the
// artifact otherwise. summaries() gives the outcome's artifacts field.
export function artifactJoiner() {
  const byId = new Map();
  const put = (a, append) => {
    if (!a || typeof a !== 'object') return;
    const id = str(a.artifactId) ? a.artifactId : '';
    const had = byId.get(id);
    if (append && had) had.parts.push(...(a.parts ?? []));
    else byId.set(id, { artifactId: id, name: a.name ?? had?.name, parts: [...(a.parts ?? [])] });
  };
  return {
    task(t) {
      for (const a of t?.artifacts ?? []) put(a, false);
    },
    update(ev) {
      put(ev?.artifact, Boolean(ev?.append));
    },
    message(m) {
      put({ artifactId: '', parts: m?.parts ?? [] }, false);
    },
    size: () => byId.size,
    summaries() {
      return [...byId.values()].map(summarizeArtifact);
    },
  };
}

// results gives the outcome's result fields from what a client saw:
// contextId, artifacts (a joiner or a list of artifacts) and statusText,
// each only when there is one. A part that cannot be read leaves the
// artifacts out (and says why on stderr).
export function results({ contextId, artifacts, statusText } = {}) {
  const out = {};
  if (str(contextId) && contextId) out.contextId = contextId;
  try {
    const list = Array.isArray(artifacts) ? artifacts.map(summarizeArtifact) : artifacts?.summaries();
    if (list?.length) out.artifacts = list;
  } catch (err) {
    process.stderr.write(`artifacts not summarised: ${err.message}\n`);
  }
  if (str(statusText) && statusText) out.statusText = statusText;
  return out;
}

// remoteError names the A2A error in err, if any, as the outcome's error
// field: a JSON-RPC error's code (err.code, a number, or a JSON-RPC error
// body the library kept), and an ErrorInfo reason where one is given
// (details[].reason with the @type google.rpc.ErrorInfo), or the code
// @a2a-js/sdk 0.3 writes in its error text. Undefined for an error that
// is not an A2A one (a network error, a bare HTTP status).
export function remoteError(err) {
  for (let e = err, i = 0; e && typeof e === 'object' && i < 4; e = e.cause, i++) {
    const rpc = [e, e.error, e.data, e.body?.error, e.response?.error].find((x) => x && typeof x === 'object' && Number.isInteger(x.code) && x.code < 0);
    const reason = errorInfoReason(rpc?.data ?? e.details ?? e.data);
    const code = rpc?.code ?? (Number.isInteger(e.envelopeCode) ? e.envelopeCode : undefined);
    if (code || reason) {
      const out = {};
      if (code) out.code = code;
      if (reason) out.reason = reason;
      const message = str(rpc?.message) ? rpc.message : str(e.message) ? e.message : '';
      if (message) out.message = message;
      return out;
    }
  }
  // @a2a-js/sdk 0.3's A2AClient keeps no code: it throws an Error whose
  // text ends "(Code: -32001)" (a JSON-RPC error answer, or one on a
  // stream).
  const m = /\(Code: (-\d+)\)/.exec(err?.message ?? '');
  return m ? { code: Number(m[1]), message: err.message } : undefined;
}

function errorInfoReason(details) {
  const list = Array.isArray(details) ? details : Array.isArray(details?.details) ? details.details : [];
  const info = list.find((d) => d && str(d.reason) && (!d['@type'] || /ErrorInfo$/.test(d['@type'])));
  return info?.reason || '';
}

// replies returns the caller's answers (task.replies): [] when it has none.
export function replies(req) {
  return Array.isArray(req?.task?.replies) ? req.task.replies.filter((r) => r && typeof r === 'object') : [];
}

// continuation turns a reply into the message that continues a paused
// task: the same task (taskId) and conversation (contextId), A2A 1.0
// §3.4.3; the reply's own messageId, or a fresh one when it has none.
export function continuation(reply, { taskId, contextId }) {
  const m = { ...reply, messageId: str(reply?.messageId) && reply.messageId ? reply.messageId : randomUUID() };
  if (taskId) m.taskId = taskId;
  if (contextId) m.contextId = contextId;
  return m;
}

// Push notifications (contract task.push; A2A 1.0 §4.3.3, §13.2). An
// adapter whose framework can receive webhooks runs the receiver itself:
// these helpers are the parts every receiver needs, so that each adapter
// gets them right the same way.

// wantsPush reports whether the caller asks to follow the task by push.
export function wantsPush(req) {
  return req?.task?.push === true;
}

// pushCredential draws a fresh credential for one push notification config
// (32 random bytes, base64url): register it as authentication
// {scheme: 'Bearer', credentials}, one per config (§13.2).
export function pushCredential() {
  return randomBytes(32).toString('base64url');
}

// pushAuthentic reports whether a delivery's headers carry the credential
// registered for its config where a 1.0 sender puts it (§4.3.3:
// Authorization: <scheme> <credentials>), compared in constant time. A
// delivery for which it is false gets a 401 and is never acted on.
export function pushAuthentic(headers, credential) {
  const got = typeof headers?.get === 'function' ? headers.get('authorization') : headers?.authorization;
  if (typeof got !== 'string' || typeof credential !== 'string' || !credential) return false;
  const [scheme, ...rest] = got.split(' ');
  const a = Buffer.from(rest.join(' '));
  const b = Buffer.from(credential);
  return scheme.toLowerCase() === 'bearer' && a.length === b.length && timingSafeEqual(a, b);
}

// pushTaskId is the id of the task a delivery's body (parsed JSON) is
// about: a 1.0 StreamResponse's task.id, statusUpdate.taskId or
// artifactUpdate.taskId, or a 0.3 Task's id ('' for none). Compare it with
// the task the config was registered for (§4.3.3: validate the task ID).
export function pushTaskId(body) {
  const o = body?.task ?? body?.statusUpdate ?? body?.artifactUpdate ?? body;
  const id = o?.taskId ?? o?.id;
  return str(id) ? id : '';
}

// extensions returns the A2A extensions the caller implements, by URI
// (task.extensions): the only ones an adapter may activate. [] when none.
export function extensions(req) {
  return Array.isArray(req?.task?.extensions) ? req.task.extensions.filter((u) => typeof u === 'string' && u !== '') : [];
}

// requiredExtensions returns the URIs of the extensions the card marks
// required: true (capabilities.extensions).
export function requiredExtensions(card) {
  const list = Array.isArray(card?.capabilities?.extensions) ? card.capabilities.extensions : [];
  return list.filter((e) => e && e.required === true && typeof e.uri === 'string').map((e) => e.uri);
}

// extensionHeader says how to activate extensions at an agent (A2A 1.0
// §3.2.6, §4.6; contract task.extensions): name is the header the
// interface's version names (A2A-Extensions for 1.x, X-A2A-Extensions for
// 0.3), value the card's declared extensions the caller implements,
// comma-separated ('' for none: send no header), and missing the card's
// required extensions the caller does not implement. A non-empty missing
// means the agent cannot be used: refuse it with reason
// extension-unsupported, naming them, before sending anything (§3.3.4).
export function extensionHeader(card, req, version = '1.0') {
  const mine = extensions(req);
  const declared = Array.isArray(card?.capabilities?.extensions) ? card.capabilities.extensions : [];
  const value = declared.filter((e) => e && mine.includes(e.uri)).map((e) => e.uri).join(',');
  const name = String(version).startsWith('0.') ? 'X-A2A-Extensions' : 'A2A-Extensions';
  return { name, value, missing: requiredExtensions(card).filter((u) => !mine.includes(u)) };
}

// --- Client certificates (mutual TLS; contract 1's optional field) -------
//
// trust.clientCertificates holds, per origin, the files of a client
// certificate ({certFile, keyFile}, PEM). Present one only in TLS
// handshakes with its origin: give it to the agent (an https.Agent or an
// undici Agent's connect options) used for that origin alone, never to a
// dispatcher shared by every host, which would show it to every host that
// asks for a certificate (AUTH-010.ONLY-ORIGIN).

// declaresMTLS reports whether a card declares a mutual TLS security
// scheme: mtlsSecurityScheme (1.0) or type mutualTLS (0.3).
export function declaresMTLS(card) {
  return Object.values(card?.securitySchemes ?? {}).some(
    (s) => s && typeof s === 'object' && (s.type === 'mutualTLS' || (s.mtlsSecurityScheme && typeof s.mtlsSecurityScheme === 'object')),
  );
}

// clientCertFor returns the TLS options {cert, key} (file contents) of the
// client certificate the request holds for url's origin, or undefined when
// it holds none.
export function clientCertFor(req, url) {
  const held = req.trust?.clientCertificates?.[originOf(url)];
  if (!held?.certFile || !held?.keyFile) return undefined;
  return { cert: readFileSync(held.certFile), key: readFileSync(held.keyFile) };
}

// clientCertFetch wraps a fetch (the global one by default) for a library
// that takes a fetch implementation: a call to an origin the request holds
// a client certificate for goes through an undici dispatcher of its own
// (undici is the adapter's copy), one per origin, whose TLS presents that
// certificate; every other call goes to base unchanged, so no other host's
// handshake can see it. The dispatcher tunnels through network.proxy (or
// $HTTPS_PROXY) as the global one does, and trusts trust.caFile on top of
// Node's roots. close() closes the dispatchers it made.
export function clientCertFetch(undici, req, base = (url, init) => globalThis.fetch(url, init)) {
  const agents = new Map();
  const dispatcherFor = (url) => {
    const cert = clientCertFor(req, url);
    if (!cert) return undefined;
    const origin = originOf(url);
    let d = agents.get(origin);
    if (d) return d;
    const tls = { ...cert };
    if (req.trust?.caFile) tls.ca = [...rootCertificates, readFileSync(req.trust.caFile, 'utf8')];
    const proxy = req.network?.proxy || process.env.HTTPS_PROXY || process.env.https_proxy || '';
    d = proxy ? new undici.ProxyAgent({ uri: proxy, requestTls: tls }) : new undici.Agent({ connect: tls });
    agents.set(origin, d);
    return d;
  };
  const certFetch = (input, init = {}) => {
    const url = typeof input === 'string' || input instanceof URL ? String(input) : input?.url;
    const dispatcher = dispatcherFor(url);
    return base(input, dispatcher ? { ...init, dispatcher } : init);
  };
  certFetch.close = () => Promise.allSettled([...agents.values()].map((d) => d.close()));
  return certFetch;
}
