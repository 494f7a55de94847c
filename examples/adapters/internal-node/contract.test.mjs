// Tests of the kit's result helpers: node --test examples/adapters/internal-node
// (kit_test.go runs it from go test). The artifact summaries must be the
// ones contract.SummarizeArtifact gives in Go, so the vectors are the
// shared file contract/testdata/artifact-vectors.json.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  artifactJoiner,
  baseOf,
  canonicalJSON,
  clientCertFor,
  clientCertFetch,
  declaresMTLS,
  continuation,
  digestPart,
  pushAuthentic,
  pushCredential,
  pushTaskId,
  extensionHeader,
  extensions,
  helloAnswer,
  invalidToken,
  oauthClientFor,
  tokenRequest,
  reasonFor,
  remoteError,
  requiredExtensions,
  replies,
  results,
  statusTextOf,
  summarizeArtifact,
  summarizeMessage,
  wantsPush,
} from './contract.mjs';

const vectors = JSON.parse(readFileSync(new URL('../../../contract/testdata/artifact-vectors.json', import.meta.url), 'utf8'));

test('the shared artifact vectors', () => {
  assert.ok(vectors.length >= 5, 'vectors file read');
  for (const v of vectors) {
    assert.deepStrictEqual(summarizeArtifact(v.artifact), v.want, v.name);
  }
});

test('RFC 8785 form of data', () => {
  const cases = [
    [{ b: 1, a: [true, null, 'x'] }, '{"a":[true,null,"x"],"b":1}'],
    [{ '\u00e9': 1, e: 2, '\ud83d\udcc4': 3, '\uff61': 4 }, '{"e":2,"é":1,"\ud83d\udcc4":3,"｡":4}'], // UTF-16 order: U+D83D before U+FF61
    [{ s: '<&>\u2028"\\\n\u0001' }, '{"s":"<&>\u2028\\"\\\\\\n\\u0001"}'],
    [[1e21, 0.1, -0, 1.5e-7, 100], '[1e+21,0.1,0,1.5e-7,100]'],
  ];
  for (const [v, want] of cases) assert.equal(canonicalJSON(v), want);
});

test('parts that say nothing or hold bad base64 are refused', () => {
  for (const p of [{}, { kind: 'file', file: { bytes: '!!' } }, { raw: '%%%' }, { data: null }, { raw: 'aGVsbG8==' }]) {
    assert.throws(() => digestPart(p), JSON.stringify(p));
  }
  // Unpadded base64 is read, as Go's RawStdEncoding does.
  assert.equal(digestPart({ raw: 'aGVsbG8' }).digest.sha256, '2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824');
});

test('streamed chunks join by append', () => {
  const j = artifactJoiner();
  j.task({ artifacts: [{ artifactId: 'a', name: 'n', parts: [{ kind: 'text', text: 'INV-1042 ' }] }] });
  j.update({ artifact: { artifactId: 'b', parts: [{ text: 'other' }] } });
  j.update({ append: true, lastChunk: true, artifact: { artifactId: 'a', parts: [{ kind: 'text', text: 'reconciled' }] } });
  const [a, b] = j.summaries();
  // The chunks of vector 0's artifact, joined, give its summary.
  assert.deepStrictEqual(a, { ...vectors[0].want, artifactId: 'a', name: 'n' });
  assert.equal(b.text, 'other');
  // Without append, a chunk replaces the artifact.
  j.update({ artifact: { artifactId: 'b', parts: [{ text: 'new' }] } });
  assert.equal(j.summaries()[1].text, 'new');
});

test('a Message reply is one artifact with an empty id', () => {
  assert.deepStrictEqual(summarizeMessage({ parts: [{ kind: 'text', text: 'hi' }] }).artifactId, '');
  assert.deepStrictEqual(results({ artifacts: artifactJoiner() }), {});
});

test('results and statusText', () => {
  const r = results({ contextId: 'c-1', artifacts: [{ artifactId: 'x', parts: [{ text: 'a' }, { text: 'b' }] }], statusText: statusTextOf({ state: 'input-required', message: { parts: [{ kind: 'text', text: 'Which ' }, { kind: 'text', text: 'day?' }] } }) });
  assert.equal(r.contextId, 'c-1');
  assert.equal(r.artifacts[0].text, 'ab');
  assert.equal(r.statusText, 'Which day?');
});

test('replies continue the task', () => {
  const req = { task: { replies: [{ role: 'user', messageId: 'm-2', parts: [{ kind: 'text', text: 'Tuesday' }] }] } };
  assert.equal(replies(req).length, 1);
  assert.deepStrictEqual(replies({ task: {} }), []);
  const m = continuation(replies(req)[0], { taskId: 't-1', contextId: 'c-1' });
  assert.equal(m.taskId, 't-1');
  assert.equal(m.contextId, 'c-1');
  assert.equal(m.messageId, 'm-2');
  assert.ok(continuation({ parts: [] }, { taskId: 't-1' }).messageId);
});

test('remote errors', () => {
  assert.deepStrictEqual(remoteError({ code: -32001, message: 'Task not found' }), { code: -32001, message: 'Task not found' });
  assert.deepStrictEqual(remoteError(Object.assign(new Error('x'), { envelopeCode: -32004 })), { code: -32004, message: 'x' });
  const withInfo = { error: { code: -32001, message: 'gone', data: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'TASK_NOT_FOUND' }] } };
  assert.deepStrictEqual(remoteError(new Error('wrapped', { cause: withInfo })), { code: -32001, reason: 'TASK_NOT_FOUND', message: 'gone' });
  assert.equal(remoteError(new TypeError('fetch failed')), undefined);
  const sdk03 = new Error('JSON-RPC error: Task not found (Code: -32001) Data: {}');
  assert.deepStrictEqual(remoteError(sdk03), { code: -32001, message: sdk03.message });
});

test('push receiver helpers', () => {
  assert.equal(wantsPush({ task: { push: true } }), true);
  assert.equal(wantsPush({ task: {} }), false);
  const a = pushCredential();
  const b = pushCredential();
  assert.notEqual(a, b, 'a fresh credential per config');
  assert.ok(a.length >= 43);
  assert.equal(pushAuthentic({ authorization: `Bearer ${a}` }, a), true);
  assert.equal(pushAuthentic(new Headers({ Authorization: `bearer ${a}` }), a), true, 'the scheme is case-insensitive');
  assert.equal(pushAuthentic({ authorization: `Bearer ${b}` }, a), false, 'another credential');
  assert.equal(pushAuthentic({ 'x-a2a-notification-token': a }, a), false, '1.0 senders put it in Authorization');
  assert.equal(pushAuthentic({}, a), false, 'none at all');
  assert.equal(pushAuthentic({ authorization: 'Bearer ' }, ''), false, 'no credential registered');
  assert.equal(pushTaskId({ statusUpdate: { taskId: 't-1' } }), 't-1');
  assert.equal(pushTaskId({ artifactUpdate: { taskId: 't-2' } }), 't-2');
  assert.equal(pushTaskId({ task: { id: 't-3' } }), 't-3');
  assert.equal(pushTaskId({ kind: 'task', id: 't-4' }), 't-4');
  assert.equal(pushTaskId({}), '');
});

test('extensions: activate what the caller implements, refuse what it does not', () => {
  const card = {
    capabilities: {
      extensions: [
        { uri: 'https://x.example/req/v1', required: true },
        { uri: 'https://x.example/opt/v1' },
      ],
    },
  };
  assert.deepStrictEqual(extensions({ task: { extensions: ['a', 3, ''] } }), ['a']);
  assert.deepStrictEqual(extensions({ task: {} }), []);
  assert.deepStrictEqual(requiredExtensions(card), ['https://x.example/req/v1']);
  const both = { task: { extensions: ['https://x.example/opt/v1', 'https://x.example/req/v1', 'urn:other'] } };
  assert.deepStrictEqual(extensionHeader(card, both, '1.0'), {
    name: 'A2A-Extensions',
    value: 'https://x.example/req/v1,https://x.example/opt/v1',
    missing: [],
  });
  assert.equal(extensionHeader(card, both, '0.3').name, 'X-A2A-Extensions');
  assert.deepStrictEqual(extensionHeader(card, { task: { extensions: ['https://x.example/opt/v1'] } }).missing, ['https://x.example/req/v1']);
  assert.deepStrictEqual(extensionHeader({}, both), { name: 'A2A-Extensions', value: '', missing: [] });
  assert.equal(reasonFor({ code: -32008, message: 'Extension support required' }), 'extension-unsupported');
});

test('a card the library calls invalid is invalid-card; one it cannot speak to is not', () => {
  for (const [msg, want] of [
    ['Invalid agent card: missing name', 'invalid-card'],
    ['Agent card failed validation: supportedInterfaces is required', 'invalid-card'],
    ['No compatible transport found, available transports: JSONRPC', 'version-mismatch'],
    ["Provided Agent Card does not contain a valid 'url' for the service endpoint.", 'version-mismatch'],
    ['Failed to fetch Agent Card from https://a.example/card: 404', 'other'],
  ]) {
    assert.equal(reasonFor(new Error(msg)), want, msg);
  }
});

test('client certificates go to their origin only', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kit-mtls-'));
  writeFileSync(join(dir, 'c.pem'), 'CERT');
  writeFileSync(join(dir, 'k.pem'), 'KEY');
  const req = { trust: { clientCertificates: { 'https://rpc.agent-d.example': { certFile: join(dir, 'c.pem'), keyFile: join(dir, 'k.pem') } } } };
  const got = clientCertFor(req, 'https://rpc.agent-d.example/a2a/v1');
  assert.equal(String(got.cert), 'CERT');
  assert.equal(String(got.key), 'KEY');
  assert.equal(clientCertFor(req, 'https://agent-d.example/.well-known/agent-card.json'), undefined);
  assert.equal(clientCertFor(req, 'https://agent-c.example/a2a/v1'), undefined);
  assert.equal(clientCertFor({}, 'https://rpc.agent-d.example/a2a/v1'), undefined);
  assert.equal(declaresMTLS({ securitySchemes: { m: { mtlsSecurityScheme: {} } } }), true);
  assert.equal(declaresMTLS({ securitySchemes: { m: { type: 'mutualTLS' } } }), true);
  assert.equal(declaresMTLS({ securitySchemes: { b: { httpAuthSecurityScheme: { scheme: 'Bearer' } } } }), false);
  assert.equal(declaresMTLS({}), false);
});

test('OAuth 2.0 client credentials: the client only for its own tokenUrl, Basic auth, invalid_token', () => {
  const client = { tokenUrl: 'https://auth.agent-d.example/oauth2/token', clientId: 'a2ac-d', clientSecret: 's3 cr:et' };
  const req = { trust: { oauth2: { 'https://rpc.agent-d.example': client } } };
  const card10 = { securitySchemes: { o: { oauth2SecurityScheme: { flows: { clientCredentials: { tokenUrl: client.tokenUrl, scopes: {} } } } } } };
  const card03 = { securitySchemes: { o: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: client.tokenUrl } } } } };
  const elsewhere = { securitySchemes: { o: { oauth2SecurityScheme: { flows: { clientCredentials: { tokenUrl: 'https://evil.example/token' } } } } } };
  assert.equal(oauthClientFor(req, 'https://rpc.agent-d.example/a2a/v1', card10), client);
  assert.equal(oauthClientFor(req, 'https://rpc.agent-d.example/a2a/v1', card03), client);
  assert.equal(oauthClientFor(req, 'https://rpc.agent-d.example/a2a/v1', elsewhere), undefined, 'another tokenUrl gets no secret');
  assert.equal(oauthClientFor(req, 'https://rpc.agent-e.example/a2a/v1', card10), undefined, 'another origin');
  const { url, init } = tokenRequest(client);
  assert.equal(url, client.tokenUrl);
  assert.equal(init.body, 'grant_type=client_credentials');
  assert.equal(Buffer.from(init.headers.Authorization.slice(6), 'base64').toString(), 'a2ac-d:s3+cr%3Aet');
  assert.equal(invalidToken('Bearer realm="D", error="invalid_token"'), true);
  assert.equal(invalidToken('Bearer realm="D"'), false);
});

test('clientCertFetch gives the certificate to its origin only', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'kit-'));
  writeFileSync(join(dir, 'c.pem'), 'CERT');
  writeFileSync(join(dir, 'k.pem'), 'KEY');
  const made = [];
  class Agent {
    constructor(opts) {
      this.opts = opts;
      made.push(this);
    }
    close() {
      this.closed = true;
      return Promise.resolve();
    }
  }
  const undici = { Agent, ProxyAgent: Agent };
  const req = {
    network: { proxy: 'http://127.0.0.1:1' },
    trust: { clientCertificates: { 'https://rpc.agent-d.example': { certFile: join(dir, 'c.pem'), keyFile: join(dir, 'k.pem') } } },
  };
  const calls = [];
  const f = clientCertFetch(undici, req, async (url, init) => calls.push([String(url), init.dispatcher]));
  await f('https://rpc.agent-d.example/a2a/v1', {});
  await f(new URL('https://rpc.agent-d.example/a2a/v1'), {});
  await f('https://agent-c.example/a2a/v1', {});
  await f('https://agent-d.example/.well-known/agent-card.json');
  assert.equal(made.length, 1);
  assert.equal(made[0].opts.uri, 'http://127.0.0.1:1');
  assert.equal(String(made[0].opts.requestTls.cert), 'CERT');
  assert.equal(calls[0][1], made[0]);
  assert.equal(calls[1][1], made[0]);
  assert.equal(calls[2][1], undefined);
  assert.equal(calls[3][1], undefined);
  await f.close();
  assert.equal(made[0].closed, true);
});

test('baseOf keeps the path a card is hosted under', () => {
  assert.equal(baseOf('https://agent-d.example/.well-known/agent-card.json'), 'https://agent-d.example');
  assert.equal(baseOf('https://hub.agent-d.example/agents/d/.well-known/agent-card.json'), 'https://hub.agent-d.example/agents/d');
  assert.equal(baseOf('https://hub.agent-d.example/agents/d/card'), 'https://hub.agent-d.example/agents/d/card');
});

test('hello declares the bindings and versions given, and only those', () => {
  const full = helloAnswer({ name: 'x', version: '1', bindings: ['JSONRPC', 'GRPC'], protocolVersions: ['1.0'] });
  assert.deepEqual(full.bindings, ['JSONRPC', 'GRPC']);
  assert.deepEqual(full.protocolVersions, ['1.0']);
  assert.equal(full.type, 'hello');
  const bare = helloAnswer({ name: 'x', version: '1' });
  assert.equal('bindings' in bare, false);
  assert.equal('protocolVersions' in bare, false);
});
