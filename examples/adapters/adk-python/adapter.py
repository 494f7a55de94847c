#!/usr/bin/env python3
"""a2a-conform exec adapter around Google's Agent Development Kit for Python,
google-adk 2.13.0: a RemoteA2aAgent run by an InMemoryRunner (in-memory
session, artifact and memory services), the way ADK puts a remote A2A agent
behind an app. No model is involved: a RemoteA2aAgent is a BaseAgent, not
an LlmAgent, so the runner needs no LLM and no API key. What ADK does by
default, and so what this scores:

  * RemoteA2aAgent takes the card URL as given: it splits it into origin and
    path and fetches exactly that with a2a-sdk's A2ACardResolver (so the
    first candidate is passed unchanged). One remote agent, so only the
    first candidate is used. The agent keeps the card and the client it
    built for its whole life and never fetches the card again; the adapter
    keeps one agent per card URL for the process (a scenario), as an ADK
    app keeps its agent tree, and drops them on reset.
  * The client is a2a-sdk 1.3.0's: ClientFactory with the bindings ADK asks
    for by default (JSONRPC, then HTTP+JSON) and the server's preference
    order. It reads the card's 1.0 supportedInterfaces (a card without them
    is mapped from its 0.3 url/preferredTransport/protocolVersion), takes
    the first interface whose binding it speaks and, for that binding, the
    1.0 interface before a 0.3 one; a 0.3 interface gets the SDK's 0.3
    compatibility transport (message/send), a 1.0 one SendMessage. Every
    request, the card fetch included, carries A2A-Version: 1.0 (the factory
    sets it on the HTTP client).
  * Before any request ADK checks every RPC URL the card names: each must
    be https and have the origin the card was fetched from. A card whose
    endpoint is on another host (rpc.agent-b.example for agent-b.example's
    card) is refused and nothing is sent. This is deliberate and has no
    opt-out (google/adk-python#6800: a deployment with split hosts is to
    hand ADK an AgentCard object or a card file instead of a URL); the
    adapter gives it the URL, as an app that discovers agents does.
  * It streams (SendStreamingMessage / message/stream) whenever the card
    says capabilities.streaming, whatever the caller prefers (ADK leaves the
    SDK's ClientConfig.streaming at True), and sends a plain message
    otherwise; it never polls, probes, retries or verifies a signature.
    A stream that ends before the task is terminal or paused is an error.
  * Failures are not raised: the runner yields an event with error_message
    ("A2A request failed: ...", "Failed to initialize remote A2A agent:
    ..."), which the adapter reports as failed with that text.

The skill id goes in message.metadata.skillId and params.metadata.skillId
through RemoteA2aAgent's request_interceptors (before_request may change
the A2A message and the ParametersConfig whose request_metadata becomes the
request's params.metadata); the same hook activates task.extensions in the
call context's service_parameters (a2a-sdk's with_a2a_extensions:
A2A-Extensions, mirrored as X-A2A-Extensions on a 0.3 interface), the way
ADK adds request headers itself. The task id, state and results come from the
events the runner yields: RemoteA2aAgent records on each the A2A response
it came from (custom_metadata "a2a:response", the task as ADK aggregated
it, or the Message). No after_request hook: with one ADK stops continuing
paused tasks by itself (_has_default_response_persistence), leaving task
routing to the hook's owner. Network: ADK accepts an a2a-sdk client
factory (a2a_client_factory), whose ClientConfig carries the httpx client;
the adapter builds that client from the request, with network.proxy and an
SSL context that trusts trust.caFile on top of the system roots, ADK's
default 600 s timeout, and, for each origin of trust.clientCertificates, a
transport mounted for that origin alone (httpx's mounts=) whose SSL
context holds its certificate (load_cert_chain), so no other host's
handshake sees it. Credentials: an httpx request hook adds, to each
request, the credential trust.credentials holds for the origin of its URL,
the way the card ADK read declares it (none on the card fetch, before the
card is known); a response hook notes a 401. ADK's own auth_scheme /
auth_credential cannot be used for this: they take one credential and its
scheme before the card is read, and attach it to the card fetch too. The
endpoint reported is the URL of the interface the client was built for,
once a call was made to it. Outcome:
completed only for a task seen to reach completed, or a Message reply;
interrupted for a task left at input-required or auth-required; failed
otherwise, with ADK's error_message. cardTrust "authoritative" and
trustMode "unpinned" once the card was read (nothing is verified). With
it: the task's contextId, its artifacts and the text of its last status
message, from the last task an event recorded (ADK aggregates a stream's
updates into a running task, chunks appended as the agent's append flag
says), or a Message reply's parts as one artifact, summarised by the kit.
No error object: ADK turns the SDK's error into error_message text, and
the adapter reports no code it did not get.

Conversations: a task left at input-required gets the caller's next
answer (task.replies) as the next user turn of the same ADK session
(runner.run_async with the reply's text parts): RemoteA2aAgent itself
sends it with the session's contextId and the paused task's id
(_get_resumable_task_id), and a fresh messageId of its own.

What ADK cannot be told: the caller's streaming preference, the candidates
after the first, the card's cache lifetime, and a credential keyed by
origin (hence the httpx hooks), that an endpoint on another host than its
card is fine, and a signature verifier (a2a-sdk's card resolver takes one,
ADK passes none). ADK's import (1.1-1.5 s of CPU here for the runner and
the A2A agent modules; the google.adk package itself is lazy) and a
warm-up run that loads what its runner imports on first use (0.2-0.4 s)
happen in load(), after hello or within the startup grace.

  a2a-conform run --startup-grace 20s --orchestrator \\
    'exec:examples/adapters/adk-python/.venv/bin/python examples/adapters/adk-python/adapter.py'
"""

import asyncio
import logging
import os
import ssl
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "internal-python"))

from a2a_conform_contract import (  # noqa: E402
    Credentials,
    client_cert_mounts,
    describe,
    extensions_of,
    Results,
    is_interrupted,
    origin_of,
    reason_for,
    replies_of,
    serve,
    status_text,
    skill_of,
    state_word,
    text_of,
)

APP = "a2a_conform"
USER = "harness"
TIMEOUT = 600.0  # RemoteA2aAgent's DEFAULT_TIMEOUT, for the httpx client it would build


def load():
    """Import ADK (the runner and the A2A agent modules only) and a2a-sdk."""
    os.environ.setdefault("ADK_SUPPRESS_A2A_EXPERIMENTAL_FEATURE_WARNINGS", "1")
    import httpx
    from a2a.client import ClientConfig, ClientFactory
    from a2a.utils.constants import TransportProtocol
    from google.adk.a2a.agent import A2aRemoteAgentConfig, RemoteA2aAgent, RequestInterceptor
    from google.adk.runners import InMemoryRunner
    from google.genai import types
    from google.protobuf.json_format import MessageToDict
    from fastapi.openapi.models import OAuth2, OAuthFlowClientCredentials, OAuthFlows
    from google.adk.auth.auth_credential import AuthCredential, AuthCredentialTypes, OAuth2Auth

    lib = dict(OAuth2=OAuth2, OAuthFlows=OAuthFlows, OAuthFlowClientCredentials=OAuthFlowClientCredentials,
               AuthCredential=AuthCredential, AuthCredentialTypes=AuthCredentialTypes, OAuth2Auth=OAuth2Auth,
               httpx=httpx, ClientConfig=ClientConfig, ClientFactory=ClientFactory,
               bindings=[TransportProtocol.JSONRPC, TransportProtocol.HTTP_JSON],
               A2aRemoteAgentConfig=A2aRemoteAgentConfig, RemoteA2aAgent=RemoteA2aAgent, RequestInterceptor=RequestInterceptor,
               InMemoryRunner=InMemoryRunner, types=types, MessageToDict=MessageToDict)
    adapter = Adapter(lib)
    asyncio.run(adapter.warm_up())
    return adapter


def oauth_client(lib, req, card_url):
    """ADK's own OAuth 2.0 client credentials flow for the agent at card_url:
    RemoteA2aAgent's auth_scheme (an OAuth2 scheme whose clientCredentials
    flow names the client's tokenUrl and scopes) and auth_credential (the
    client id and secret), for the trust.oauth2 client held for the card
    URL's origin, the only origin ADK lets the card's RPC URLs have. ADK's
    CredentialManager exchanges them for a token (authlib, through requests,
    which takes its proxy and CA from HTTPS_PROXY and REQUESTS_CA_BUNDLE)
    once per invocation and sends it as a bearer token on the card fetch and
    on every call. (None, None) when the caller holds no client there."""
    client = ((req.get("trust") or {}).get("oauth2") or {}).get(origin_of(card_url))
    if not isinstance(client, dict) or not client.get("tokenUrl"):
        return None, None
    proxy, ca = (req.get("network") or {}).get("proxy"), (req.get("trust") or {}).get("caFile")
    if proxy:
        os.environ["HTTPS_PROXY"] = proxy
    if ca:
        os.environ["REQUESTS_CA_BUNDLE"] = ca
    flow = lib["OAuthFlowClientCredentials"](tokenUrl=client["tokenUrl"], scopes={s: "" for s in client.get("scopes") or []})
    credential = lib["AuthCredential"](
        auth_type=lib["AuthCredentialTypes"].OAUTH2,
        oauth2=lib["OAuth2Auth"](client_id=client.get("clientId"), client_secret=client.get("clientSecret")))
    return lib["OAuth2"](flows=lib["OAuthFlows"](clientCredentials=flow)), credential


class Seen:
    """What one delegation saw: the request's credentials, the task, the
    endpoint called and the credential headers presented."""

    def __init__(self, req):
        self.card_url = (req.get("candidates") or [""])[0]
        self.skill = skill_of(req)
        self.creds = Credentials(req)
        self.task_id = ""
        self.context_id = ""
        self.state = ""
        self.status_text = ""
        self.results = Results()
        self.replies = replies_of(req)
        self.extensions = extensions_of(req)
        self.message_reply = False
        self.endpoint = ""
        self.card_read = False


class Remote:
    """One RemoteA2aAgent (for one card URL) and the runner that runs it."""

    def __init__(self, agent, runner):
        self.agent = agent
        self.runner = runner

    def endpoint(self):
        """The URL of the interface the client ADK built talks to (a REST
        call's path goes past it); "" before there is one."""
        transport = getattr(getattr(self.agent, "_a2a_client", None), "_transport", None)
        transport = getattr(transport, "_base", transport)  # under a tenant decorator
        return getattr(transport, "url", "") or ""

    def card(self, lib):
        card = getattr(self.agent, "_agent_card", None)
        return lib["MessageToDict"](card) if card is not None else None


class Adapter:
    def __init__(self, lib):
        self.lib = lib
        self.http = None
        self.net = None
        self.remotes = {}
        self.cur = None  # the delegation running now (the contract runs one at a time)

    async def warm_up(self):
        """Run ADK once on a card file that does not exist, so that the
        modules its runner imports on first use (the workflow engine, the
        in-memory services, auth, about 400 modules) are loaded in load()
        and not within the first delegation's deadline. No request is made."""
        types, missing = self.lib["types"], os.path.join(os.path.dirname(os.path.abspath(__file__)), "no-such-card.json")
        runner = self.lib["InMemoryRunner"](
            agent=self.lib["RemoteA2aAgent"](name="warm_up", agent_card=missing), app_name=APP)
        session = await runner.session_service.create_session(app_name=APP, user_id=USER)
        log = logging.getLogger("google_adk")
        level, log.level = log.level, logging.CRITICAL + 1  # its "card file not found" is expected
        try:
            async for _ in runner.run_async(user_id=USER, session_id=session.id,
                                            new_message=types.Content(role="user", parts=[types.Part(text="-")])):
                pass
        finally:
            log.setLevel(level)
        import httpcore  # noqa: F401 - httpx imports it on the first connection

    async def reset(self):
        """Drop every agent (cards and clients) and the connections."""
        self.remotes = {}
        if self.http is not None:
            await self.http.aclose()
        self.http, self.net = None, None

    def _http(self, req):
        """The httpx client for the request's proxy, CA and client
        certificates (one per process while they stay the same)."""
        trust = req.get("trust") or {}
        certs = sorted((o, c.get("certFile"), c.get("keyFile")) for o, c in (trust.get("clientCertificates") or {}).items() if isinstance(c, dict))
        net = ((req.get("network") or {}).get("proxy") or None, trust.get("caFile") or None, certs)
        if self.http is None or net != self.net:
            def context():
                ctx = ssl.create_default_context()
                if net[1]:
                    ctx.load_verify_locations(cafile=net[1])
                return ctx

            httpx = self.lib["httpx"]
            # trust.clientCertificates: a transport per origin, mounted for
            # that origin alone, whose SSL context holds its certificate.
            mounts = client_cert_mounts(req, lambda ctx: httpx.AsyncHTTPTransport(verify=ctx, proxy=net[0]), context)
            self.http = httpx.AsyncClient(
                timeout=httpx.Timeout(timeout=TIMEOUT), proxy=net[0], verify=context(), mounts=mounts,
                event_hooks={"request": [self._on_request], "response": [self._on_response]})
            self.net = net
            self.remotes = {}
        return self.http

    async def _on_request(self, request):
        """Present the credential held for the URL's origin, as the card says."""
        cur = self.cur
        if cur is None:
            return
        remote = self.remotes.get(cur.card_url)
        card = remote.card(self.lib) if remote else None
        if card is None:
            return
        for name, value in cur.creds.headers(str(request.url), card).items():
            request.headers[name] = value
            request.extensions["a2a_conform_presented"] = True

    async def _on_response(self, response):
        cur = self.cur
        if cur is None:
            return
        request = response.request
        if request.method == "POST":
            cur.endpoint = str(request.url)
        cur.creds.saw(response.status_code, bool(request.extensions.get("a2a_conform_presented")))

    def _remote(self, req, card_url):
        remote = self.remotes.get(card_url)
        if remote is not None:
            return remote
        lib = self.lib
        factory = lib["ClientFactory"](lib["ClientConfig"](
            httpx_client=self._http(req), supported_protocol_bindings=list(lib["bindings"])))
        scheme, credential = oauth_client(lib, req, card_url)
        agent = lib["RemoteA2aAgent"](
            name="remote_agent", agent_card=card_url, description="the first candidate",
            a2a_client_factory=factory, auth_scheme=scheme, auth_credential=credential,
            config=lib["A2aRemoteAgentConfig"](request_interceptors=[lib["RequestInterceptor"](
                before_request=self._before_request)]))
        remote = Remote(agent, lib["InMemoryRunner"](agent=agent, app_name=APP))
        self.remotes[card_url] = remote
        return remote

    async def _before_request(self, ctx, message, params):
        """Name the skill in the message's and the request's metadata, and
        activate the caller's extensions (task.extensions) in the call
        context's service parameters, with a2a-sdk's with_a2a_extensions
        (the way ADK adds request headers itself)."""
        cur = self.cur
        cur.card_read = True
        if cur.skill:
            message.metadata.update({"skillId": cur.skill})
            params.request_metadata = dict(params.request_metadata or {}, skillId=cur.skill)
        if cur.extensions:
            from a2a.client import ClientCallContext
            from a2a.client.service_parameters import ServiceParametersFactory, with_a2a_extensions

            call = params.client_call_context or ClientCallContext()
            call.service_parameters = ServiceParametersFactory.create_from(call.service_parameters, [with_a2a_extensions(cur.extensions)])
            params.client_call_context = call
        return message, params

    def _saw(self, event):
        """Note the A2A response an event of the remote agent records: a
        task (as ADK aggregated it so far) or a Message."""
        cur, meta = self.cur, getattr(event, "custom_metadata", None) or {}
        response = meta.get("a2a:response")
        if not isinstance(response, dict):
            return
        if "status" in response:  # a task
            cur.task_id = response.get("id") or cur.task_id
            cur.context_id = response.get("contextId") or cur.context_id
            cur.state = state_word((response.get("status") or {}).get("state")) or cur.state
            if isinstance((response.get("status") or {}).get("message"), dict):
                cur.status_text = status_text(response["status"]["message"])
            cur.results = Results()
            for a in response.get("artifacts") or []:
                cur.results.add(a)
        elif "messageId" in response:
            cur.message_reply = True
            cur.task_id = response.get("taskId") or cur.task_id
            cur.context_id = response.get("contextId") or cur.context_id
            cur.results = Results()
            cur.results.reply(response.get("parts"))

    async def delegate(self, req):
        cands = req.get("candidates") or []
        if not cands:
            return {"outcome": "failed", "reason": "other", "detail": "no candidates"}
        if self.http is not None and self.http.is_closed:
            self.http = None
        cur = self.cur = Seen(req)
        self._http(req)
        remote = self._remote(req, cands[0])
        errors = []
        try:
            errors = await self._run(remote, req)
        except Exception as err:  # noqa: BLE001 - every failure is an outcome
            errors.append(describe(err))
        return self._outcome(cur, remote, errors)

    async def _run(self, remote, req):
        types = self.lib["types"]
        session = await remote.runner.session_service.create_session(app_name=APP, user_id=USER)
        errors = []
        message = types.Content(role="user", parts=[types.Part(text=text_of(req))])
        cur = self.cur
        replies = list(cur.replies)
        while True:
            async for ev in remote.runner.run_async(user_id=USER, session_id=session.id, new_message=message):
                self._saw(ev)
                if ev.error_message:
                    errors.append(ev.error_message)
            if errors or not replies or cur.state != "input-required" or not cur.task_id:
                return errors
            # The caller's answer is the session's next user turn; ADK
            # continues the paused task with it.
            cur.message_reply = False
            parts = [p["text"] for p in replies.pop(0).get("parts") or [] if isinstance(p, dict) and isinstance(p.get("text"), str)]
            message = types.Content(role="user", parts=[types.Part(text=t) for t in parts] or [types.Part(text="")])

    def _outcome(self, cur, remote, errors):
        out = {}
        if cur.endpoint:
            cur.endpoint = remote.endpoint() or cur.endpoint
        if cur.card_read or remote.card(self.lib) is not None:
            out.update(cardTrust="authoritative", trustMode="unpinned")
        if cur.endpoint:
            out["agent"] = cur.endpoint
        if cur.skill:
            out["skill"] = cur.skill
        if cur.task_id:
            out["taskId"] = cur.task_id
        if cur.context_id:
            out["contextId"] = cur.context_id
        if cur.state:
            out["taskState"] = cur.state
        if cur.status_text:
            out["statusText"] = cur.status_text
        cur.results.report(out)
        if errors:
            text = "; ".join(errors)
            return dict(out, outcome="failed", reason=reason_for(Exception(text), cur.creds.refusal), detail=text)
        if is_interrupted(cur.state) and cur.task_id and cur.endpoint:
            return dict(out, outcome="interrupted", reason="ok", detail='remote task waits in state "%s"' % cur.state)
        if cur.endpoint and ((cur.state == "completed" and cur.task_id) or (cur.message_reply and not cur.state)):
            return dict(out, outcome="completed", reason="ok", detail="google-adk RemoteA2aAgent via " + cur.endpoint)
        return dict(out, outcome="failed", reason="other",
                    detail='remote task %s ended in state "%s"' % (cur.task_id or "(none)", cur.state or "unknown"))


if __name__ == "__main__":
    serve("a2a-conform-adapter-adk-python", "google-adk@2.13.0", load)
