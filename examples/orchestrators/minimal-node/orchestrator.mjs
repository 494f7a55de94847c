#!/usr/bin/env node
// The smallest a2a-conform orchestrator in Node: built-in modules, the driver
// contract (docs/driver-contract.md) and the exec driver's environment only.
// Node trusts NODE_EXTRA_CA_CERTS (the fleet CA); Node before 24 ignores the
// proxy variables, so each connection dials the request's network.resolve
// address, keeping the host name for SNI and the certificate check. Per
// delegation: each candidate's card, then message/send (0.3) to its endpoint with the skill id;
// the first completed task wins. Reported: contextId, statusText, error; not artifacts.
//
//   a2a-conform run --orchestrator 'exec:node examples/orchestrators/minimal-node/orchestrator.mjs'
import https from 'node:https';
import readline from 'node:readline';
import tls from 'node:tls';
import { randomUUID } from 'node:crypto';

function call(resolve, url, body) {
  const u = new URL(url);
  const [host, port] = (resolve[`${u.hostname}:${u.port || 443}`] || `${u.hostname}:${u.port || 443}`).split(':');
  const createConnection = () => tls.connect({ host, port: Number(port), servername: u.hostname });
  const headers = body ? { 'Content-Type': 'application/json' } : {};
  return new Promise((ok, fail) => {
    const req = https.request(u, { method: body ? 'POST' : 'GET', headers, createConnection, timeout: 10000 }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c)).on('end', () => { try { ok(JSON.parse(text)); } catch (e) { fail(e); } });
    });
    req.on('error', fail).on('timeout', () => req.destroy(new Error('timeout'))).end(body && JSON.stringify(body));
  });
}

const endpoint = (card) => // 1.0 cards list interfaces; 0.3 cards have url
  (card.supportedInterfaces || []).find((i) => i.protocolBinding === 'JSONRPC' && String(i.protocolVersion).startsWith('0.3'))?.url || card.url;

async function delegate(req) {
  const out = { outcome: 'failed', reason: 'other' }, skill = req.task.skill || '', why = [], resolve = req.network.resolve || {};
  for (const cand of req.candidates) {
    try {
      const url = endpoint(await call(resolve, cand));
      Object.assign(out, { agent: url, cardTrust: 'authoritative', trustMode: 'unpinned' });
      const metadata = skill ? { skillId: skill } : {}; // where the fleet reads the skill id
      const send = (message) => call(resolve, url, { jsonrpc: '2.0', id: randomUUID(), method: 'message/send', params: { message: { ...message, metadata }, metadata } });
      let ans = await send(req.task.message); // each of task.replies continues the task while it asks (same taskId and contextId):
      for (const r of req.task.replies || []) if (ans.result?.status?.state === 'input-required') ans = await send({ ...r, messageId: r.messageId || randomUUID(), taskId: ans.result.id, contextId: ans.result.contextId });
      const t = ans.result || {}, state = t.status?.state, statusText = (t.status?.message?.parts || []).map((p) => p.text || '').join('') || undefined;
      Object.assign(out, { contextId: t.contextId, statusText, error: ans.error && { code: ans.error.code, message: ans.error.message } });
      if (state === 'completed') return { ...out, outcome: 'completed', reason: 'ok', skill, taskId: t.id, taskState: state };
      why.push(`${url}: ${ans.error ? `error ${ans.error.code}` : `task ${state}`}`);
    } catch (e) { why.push(`${cand}: ${e.message}`); } // unreachable, TLS, not JSON: the next candidate
  }
  return { ...out, detail: why.join('; ') };
}

for await (const line of readline.createInterface({ input: process.stdin })) {
  const msg = line.trim() ? JSON.parse(line) : {};
  let ans;
  if (msg.type === 'hello') ans = { type: 'hello', name: 'minimal-node', version: '1' };
  else if (msg.type === 'reset') ans = { type: 'reset', ok: true }; // nothing is cached, so nothing to drop
  else if (msg.type === 'delegate') ans = { ...(await delegate(msg)), id: msg.id };
  if (ans) process.stdout.write(JSON.stringify({ contract: 1, ...ans }) + '\n');
}
