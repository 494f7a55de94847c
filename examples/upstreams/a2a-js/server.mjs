#!/usr/bin/env node
// An honest A2A 1.0 echo agent served by the official JavaScript SDK,
// @a2a-js/sdk 1.3.0 (DefaultRequestHandler with its InMemoryTaskStore,
// behind the SDK's express jsonRpcHandler and agentCardHandler). It is an
// upstream for the tests and the bench of `a2a-conform proxy`: a real SDK
// server, not one of the harness's mock vendors.
//
//   node server.mjs [--addr 127.0.0.1:0] [--skill ID]... [--slow MS]
//
// Once listening it prints one line, "A2A upstream listening on
// http://127.0.0.1:PORT", and serves until SIGTERM, SIGINT or the end of
// its standard input, then exits 0. Each task completes with one artifact,
// "echo: " and the text of the user's message.
import express from 'express';
import { randomUUID } from 'node:crypto';
import { AGENT_CARD_PATH, TaskState } from '@a2a-js/sdk';
import { AgentEvent, DefaultRequestHandler, InMemoryTaskStore } from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, UserBuilder } from '@a2a-js/sdk/server/express';

function parseArgs(argv) {
  const o = { addr: '127.0.0.1:0', skills: [], slow: 0 };
  for (let i = 0; i < argv.length; i++) {
    const v = argv[i + 1];
    switch (argv[i]) {
      case '--addr': o.addr = v; i++; break;
      case '--skill': o.skills.push(v); i++; break;
      case '--slow': o.slow = Number(v); i++; break;
      default: throw new Error(`unknown argument ${argv[i]}`);
    }
  }
  const [host, port] = o.addr.split(/:(?=[^:]*$)/);
  if (host !== '127.0.0.1' && host !== 'localhost' && host !== '::1') throw new Error(`--addr ${o.addr}: loopback only`);
  if (o.skills.length === 0) o.skills.push('echo');
  if (!(o.slow >= 0)) throw new Error(`--slow ${o.slow}: milliseconds, not negative`);
  return { ...o, host, port: Number(port) };
}

// agentCard is the A2A 1.0 card (A2A 1.0 §4.4.1): one JSON-RPC interface.
function agentCard(base, skills) {
  return {
    name: 'Echo (a2a-js)',
    description: 'An honest echo agent on @a2a-js/sdk: each task completes with one artifact, "echo: " and the user\'s text.',
    supportedInterfaces: [{ url: `${base}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' }],
    provider: undefined,
    version: '0.1.0',
    capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: skills.map((id) => ({ id, name: id, description: 'Answers with "echo: " and the text of the message.', tags: ['echo'], examples: [], inputModes: [], outputModes: [], securityRequirements: [] })),
    signatures: [],
  };
}

const textOf = (msg) => (msg?.parts ?? []).filter((p) => p.content?.$case === 'text').map((p) => p.content.value).join('\n');
const status = (state) => ({ state, message: undefined, timestamp: new Date().toISOString() });

// EchoExecutor publishes the task, working, the artifact and completed.
class EchoExecutor {
  constructor(slow) { this.slow = slow; this.canceled = new Set(); }

  async execute(ctx, bus) {
    const { taskId, contextId } = ctx;
    const user = ctx.userMessage;
    if (!ctx.task) {
      bus.publish(AgentEvent.task({ id: taskId, contextId, status: status(TaskState.TASK_STATE_SUBMITTED), artifacts: [], history: [user], metadata: undefined }));
    }
    bus.publish(AgentEvent.statusUpdate({ taskId, contextId, status: status(TaskState.TASK_STATE_WORKING), metadata: undefined }));
    if (this.slow > 0) await new Promise((r) => setTimeout(r, this.slow));
    if (this.canceled.has(taskId)) return bus.finished();
    const part = { content: { $case: 'text', value: `echo: ${textOf(user)}` }, metadata: undefined, filename: '', mediaType: 'text/plain' };
    bus.publish(AgentEvent.artifactUpdate({ taskId, contextId, artifact: { artifactId: randomUUID(), name: 'echo', description: '', parts: [part], metadata: undefined, extensions: [] }, append: false, lastChunk: true, metadata: undefined }));
    bus.publish(AgentEvent.statusUpdate({ taskId, contextId, status: status(TaskState.TASK_STATE_COMPLETED), metadata: undefined }));
    bus.finished();
  }

  async cancelTask(taskId, bus) {
    this.canceled.add(taskId);
    bus.publish(AgentEvent.statusUpdate({ taskId, contextId: '', status: status(TaskState.TASK_STATE_CANCELED), metadata: undefined }));
    bus.finished();
  }
}

function main() {
  const o = parseArgs(process.argv.slice(2));
  const app = express();
  const server = app.listen(o.port, o.host, () => {
    const base = `http://127.0.0.1:${server.address().port}`;
    const card = agentCard(base, o.skills);
    const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), new EchoExecutor(o.slow));
    app.use(`/${AGENT_CARD_PATH}`, agentCardHandler({ agentCardProvider: handler }));
    app.use('/a2a/jsonrpc', jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
    process.stdout.write(`A2A upstream listening on ${base}\n`);
  });
  const stop = () => server.close(() => process.exit(0)) && setTimeout(() => process.exit(0), 2000).unref();
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  process.stdin.on('end', stop);
  process.stdin.resume();
}

try { main(); } catch (e) { process.stderr.write(`upstream: ${e.message}\n`); process.exit(2); }
