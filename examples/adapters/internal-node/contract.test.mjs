// Tests of the kit's result helpers: node --test examples/adapters/internal-node
// (kit_test.go runs it from go test). The artifact summaries must be the
// ones contract.SummarizeArtifact gives in Go, so the vectors are the
// shared file contract/testdata/artifact-vectors.json.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import {
  artifactJoiner,
  baseOf,
  canonicalJSON,
  continuation,
  digestPart,
  pushAuthentic,
  pushCredential,
  pushTaskId,
  extensionHeader,
  extensions,
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

test('baseOf keeps the path a card is hosted under', () => {
  assert.equal(baseOf('https://agent-d.example/.well-known/agent-card.json'), 'https://agent-d.example');
  assert.equal(baseOf('https://hub.agent-d.example/agents/d/.well-known/agent-card.json'), 'https://hub.agent-d.example/agents/d');
  assert.equal(baseOf('https://hub.agent-d.example/agents/d/card'), 'https://hub.agent-d.example/agents/d/card');
});
