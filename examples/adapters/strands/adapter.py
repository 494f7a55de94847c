#!/usr/bin/env python3
"""a2a-conform exec adapter around the Strands Agents SDK's remote A2A
agent, strands-agents 1.62.0 (A2AAgent, from strands.agent), whose A2A
client is a2a-sdk 0.3.26: an A2A 0.3 client. What Strands does by default,
and so what this scores:

  * A2AAgent(endpoint) takes a base URL and fetches the card with a2a-sdk's
    A2ACardResolver at endpoint + "/.well-known/agent-card.json" (a card
    URL given as is would become .../.well-known/agent-card.json twice), so
    the adapter passes the first candidate's origin; one remote agent, so
    only the first candidate is used, with a fresh A2AAgent per delegation.
    The card is kept for the agent's life (get_agent_card caches it);
  * the card is parsed as an a2a-sdk 0.3 AgentCard, so a 1.0-only card (no
    url) fails validation (reported as version-mismatch), and
    ClientFactory takes the first of the card's preferredTransport + url
    and additionalInterfaces that is JSON-RPC: the 1.0 supportedInterfaces
    are never read. It sends no A2A-Version header;
  * it always asks the SDK to stream (it sets ClientConfig.streaming=True
    whatever the caller passes), so the SDK sends message/stream when the
    card says capabilities.streaming and message/send otherwise; the
    task's preferStreaming cannot change that. blocking is true and it
    never polls (no tasks/get): a task returned at submitted or working is
    the result;
  * invoke_async() / stream_async() build the A2A message themselves from
    a string or Strands content blocks (text parts only, a fresh messageId,
    no metadata) and call client.send_message(message) with no
    request_metadata, and A2AAgent passes ClientFactory.create no
    interceptors (nor does it pass its deprecated a2a_client_factory
    anything but the card), so THE SKILL ID IS NEVER SENT: the vendor runs its
    default skill, and the outcome names no skill (the wire's "" = default
    skill), as for Mastra and the AI SDK (passing metadata from A2AAgent
    is an open feature request, strands-agents/harness-sdk#1576);
  * errors (HTTP status, JSON-RPC errors, an SSE answer with the wrong
    Content-Type, TLS) are raised by the SDK and Strands lets them through;
    no retry, no re-fetch, no next candidate, no probe, no signature check
    (a2a-sdk's signature_verifier is not reachable through A2AAgent).

The adapter calls stream_async(text) the way a Strands caller who wants the
remote task does (invoke_async() is the same call keeping only the final
AgentResult, which has no task id, and no task state after a message/send:
Strands reads the state only from a status-update event; its stop_reason
is end_turn for any state but input-required and auth-required, a task
still working included) and reads the raw A2A events it yields: a Message, or (Task, update) pairs whose Task the
SDK keeps up to date. Outcome: completed only for a task seen in state
completed (or a Message reply); interrupted for input-required or
auth-required (Strands stops there too); failed otherwise, with the
SDK's error. agent is the URL of the JSON-RPC POST Strands made (watched
with an httpx event hook, which changes nothing on the wire); cardTrust
"authoritative" and trustMode "unpinned" once the card GET succeeded (even
when the SDK then refused the card).

Results: the task's contextId, its artifacts (the Task the SDK keeps up
to date, whose artifacts it joins as the chunks' append flag says; a
Message reply's parts as one artifact), the text of its last status
message, all dumped from the SDK's pydantic objects in the 0.3 JSON shape
and summarised by the kit; and the A2A error when the SDK raised
A2AClientJSONRPCError (its code and message; 0.3 error data carries no
ErrorInfo reason).

Conversations: STRANDS CANNOT CONTINUE A TASK. A2AAgent builds every
message itself (convert_input_to_message: a fresh messageId, no taskId,
no contextId) and stream_async takes nothing that names a task, so a
reply sent through it would start a new task. The adapter does not send
task.replies: a task that asks is reported interrupted, its question in
statusText, and the detail says the replies were not sent.

What is passed, through Strands' own hook: A2AAgent(client_config=
ClientConfig(httpx_client=...)) is the documented way to authenticate
("SigV4, OAuth, bearer tokens"), and Strands uses that client for the card
and for every A2A request. The adapter's httpx.AsyncClient:
  * proxy=network.proxy and verify=an SSLContext with the system roots plus
    trust.caFile, built from the request (without client_config Strands
    makes its own client, which would read HTTPS_PROXY/SSL_CERT_FILE);
  * mounts= a transport per origin of trust.clientCertificates whose
    SSLContext holds that certificate (load_cert_chain), so only that
    origin's handshakes present it (a client-wide cert= would show it to
    every host that asks);
  * timeout 300 s, Strands' own default for the client it makes (a caller
    who passes a client must set it);
  * auth=an httpx.Auth that adds the credential trust.credentials holds for
    the origin of each URL requested, the way the card Strands read
    declares it (none on the card fetch, before the card is known), and
    notes a 401 (nothing retries it).
  * extensions=task.extensions in the same ClientConfig: a2a-sdk 0.3's own
    extension API (its transport sends them as X-A2A-Extensions, the 0.3
    header, on every call; Strands keeps the field when it sets
    streaming). Neither Strands nor the SDK compares the card's required
    extensions with them: a card requiring one the caller lacks is sent
    to, and its -32008 is reported as extension-unsupported.
What Strands cannot be told: the skill id (above), params.metadata, the
card's path, streaming or not, any candidate but one.

Glue (../internal-python/a2a_conform_contract.py): the NDJSON loop, stdout
kept for the contract. `from strands.agent import A2AAgent` imports the
whole strands package (Agent, event loop, plugins, and a2a-sdk's server
side through strands.multiagent.a2a): 1.2-1.5 s here; it happens in load(),
within the startup grace.

    a2a-conform run --orchestrator 'exec:examples/adapters/strands/.venv/bin/python examples/adapters/strands/adapter.py'
"""

import os
import ssl
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "internal-python"))

import a2a_conform_contract as contract  # noqa: E402

NAME = "a2a-conform-adapter-strands"
VERSION = "strands-agents@1.62.0 (a2a-sdk@0.3.26, A2A 0.3)"
TIMEOUT = 300  # seconds: A2AAgent's default timeout for the client it makes


def load():
    """Import Strands' remote agent and the pieces of its client config."""
    import httpx
    from a2a.client import ClientConfig
    from strands.agent import A2AAgent

    return Adapter(httpx, A2AAgent, ClientConfig)


class Adapter:
    """One Strands A2AAgent per delegation."""

    def __init__(self, httpx, agent_cls, config_cls):
        self.httpx = httpx
        self.agent_cls = agent_cls
        self.config_cls = config_cls

    async def delegate(self, req):
        cands = req.get("candidates") or []
        if not cands:
            return {"outcome": "failed", "reason": "other", "detail": "no candidates"}
        run = Run(self.httpx, req)
        client = run.client()
        # task.extensions: a2a-sdk 0.3's own ClientConfig.extensions, which its
        # JSON-RPC transport sends as X-A2A-Extensions on every call.
        config = self.config_cls(httpx_client=client, extensions=contract.extensions_of(req))
        agent = self.agent_cls(contract.base_of(cands[0]), client_config=config)
        try:
            await run.call(agent)
        except Exception as err:  # noqa: BLE001 - every failure is an outcome
            run.error = err
        finally:
            await client.aclose()
        return run.outcome(cands[0])


class Run:
    """What one delegation saw: the requests made, the card, the events."""

    def __init__(self, httpx, req):
        self.httpx = httpx
        self.req = req
        self.creds = contract.Credentials(req)
        self.card = None  # the card as a dict once Strands has read it
        self.streams = False
        self.requests = []  # [method, url, status or None]
        self.task_id = ""
        self.context_id = ""
        self.state = ""
        self.message = False
        self.status_text = ""
        self.results = contract.Results()
        self.error = None

    def client(self):
        """The httpx client handed to Strands: proxy, CA, client certificates,
        credentials, a watch."""
        trust = self.req.get("trust") or {}

        def context():
            ctx = ssl.create_default_context()
            if trust.get("caFile"):
                ctx.load_verify_locations(cafile=trust["caFile"])
            return ctx

        proxy = (self.req.get("network") or {}).get("proxy") or None
        mounts = contract.client_cert_mounts(self.req, lambda ctx: self.httpx.AsyncHTTPTransport(verify=ctx, proxy=proxy), context)
        return self.httpx.AsyncClient(
            proxy=proxy,
            verify=context(),
            mounts=mounts,
            timeout=self.httpx.Timeout(TIMEOUT),
            auth=_auth_class(self.httpx)(self),
            event_hooks={"request": [self._on_request], "response": [self._on_response]},
        )

    async def _on_request(self, request):
        self.requests.append([request.method, str(request.url), None])

    async def _on_response(self, response):
        for r in reversed(self.requests):
            if r[1] == str(response.request.url) and r[2] is None:
                r[2] = response.status_code
                break

    async def call(self, agent):
        card = await agent.get_agent_card()  # the fetch stream_async starts with; it keeps the card
        self.card = card.model_dump(mode="json", by_alias=True, exclude_none=True)
        self.streams = bool(card.capabilities and card.capabilities.streaming)
        async for ev in agent.stream_async(contract.text_of(self.req)):
            if ev.get("type") == "a2a_stream":
                self._saw(ev.get("event"))

    def _saw(self, event):
        if isinstance(event, tuple) and len(event) == 2:
            task, update = event
            if task is not None:
                self.task_id = task.id or self.task_id
                self.context_id = task.context_id or self.context_id
                if task.status:
                    self._status(task.status)
                self.results = contract.Results()  # the task as the SDK joined it so far
                for a in task.artifacts or []:
                    self.results.add(_dump(a))
            status = getattr(update, "status", None)
            if status is not None:
                self.task_id = getattr(update, "task_id", "") or self.task_id
                self._status(status)
        elif event is not None and getattr(event, "kind", "") == "message":
            self.message = True
            self.task_id = getattr(event, "task_id", None) or self.task_id
            self.context_id = getattr(event, "context_id", None) or self.context_id
            self.results = contract.Results()
            self.results.reply(_dump(event).get("parts"))

    def _status(self, status):
        self.state = contract.state_word(status.state) or self.state
        if getattr(status, "message", None) is not None:
            self.status_text = contract.status_text(_dump(status.message))

    def outcome(self, cand):
        out = {}
        card_url = contract.base_of(cand).rstrip("/") + "/.well-known/agent-card.json"  # what A2ACardResolver GETs
        if self.card is not None or any(m == "GET" and u == card_url and s == 200 for m, u, s in self.requests):
            out.update(cardTrust="authoritative", trustMode="unpinned")
        posts = [u for m, u, _ in self.requests if m == "POST"]
        if posts:
            out["agent"] = posts[-1]
        if self.task_id:
            out["taskId"] = self.task_id
        if self.context_id:
            out["contextId"] = self.context_id
        if self.state:
            out["taskState"] = self.state
        if self.status_text:
            out["statusText"] = self.status_text
        self.results.report(out)
        how = "message/stream" if self.streams else "message/send"
        if self.error is not None:
            if _jsonrpc_error(self.error):
                out["error"] = _jsonrpc_error(self.error)
            return dict(out, outcome="failed", reason=self._reason(), detail="A2AAgent.stream_async: " + _clip(contract.describe(self.error)))
        if "agent" not in out:
            return dict(out, outcome="failed", reason="other", detail="A2AAgent.stream_async sent nothing")
        if self.message and self.state in ("", "completed"):
            return dict(out, outcome="completed", reason="ok", detail="A2AAgent %s via %s: a message reply; no skill id sent (Strands has no place for one)" % (how, out["agent"]))
        if self.state == "completed" and self.task_id:
            return dict(out, outcome="completed", reason="ok", detail="A2AAgent %s via %s; no skill id sent (Strands has no place for one)" % (how, out["agent"]))
        if contract.is_interrupted(self.state) and self.task_id:
            unsent = "; %d replies not sent (A2AAgent cannot continue a task)" % len(contract.replies_of(self.req)) if self.state == "input-required" and contract.replies_of(self.req) else ""
            return dict(out, outcome="interrupted", reason="ok", detail="%s: remote task waits in state %s%s" % (how, self.state, unsent))
        return dict(out, outcome="failed", reason="other", detail="%s: remote task %s ended in state %s" % (how, self.task_id or "(none)", self.state or "unknown"))

    def _reason(self):
        # a2a-sdk's 0.3 AgentCard needs a url: a 1.0-only card fails its
        # validation there alone, which the kit's card_reason reads as
        # version-mismatch (nothing this client speaks); a card that lacks
        # other members is no card at all (invalid-card).
        return contract.reason_for(self.error, self.creds.refusal)


def _dump(obj):
    """An a2a-sdk 0.3 pydantic object as its 0.3 JSON (a dict)."""
    return obj.model_dump(mode="json", by_alias=True, exclude_none=True)


def _jsonrpc_error(err):
    """The outcome's error for an A2AClientJSONRPCError in err's chain
    (its code and message), else None."""
    seen = set()
    while err is not None and id(err) not in seen:
        seen.add(id(err))
        e = getattr(err, "error", None)
        if type(err).__name__ == "A2AClientJSONRPCError" and e is not None:
            return contract.remote_error(getattr(e, "code", None), "", getattr(e, "message", "") or "")
        err = err.__cause__ or err.__context__
    return None


def _clip(text, limit=400):
    """The start of an error text: a card that fails validation is quoted
    whole in pydantic's message."""
    return text if len(text) <= limit else text[:limit] + " [...]"


def _auth_class(httpx):
    """An httpx.Auth presenting the caller's credential for each origin."""

    class CredentialAuth(httpx.Auth):
        def __init__(self, run):
            self.run = run

        def auth_flow(self, request):
            extra = self.run.creds.headers(str(request.url), self.run.card)
            for k, v in extra.items():
                request.headers[k] = v
            response = yield request
            self.run.creds.saw(response.status_code, bool(extra))

    return CredentialAuth


if __name__ == "__main__":
    contract.serve(NAME, VERSION, load)
