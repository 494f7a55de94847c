#!/usr/bin/env python3
"""a2a-conform exec adapter around the official A2A Python SDK, a2a-sdk 1.3.0
(a2a.client), used through its default path: ClientFactory with a default
ClientConfig, create_from_url, Client.send_message. What the SDK does by
default, and so what this scores:

  * create_from_url(base, relative_card_path=...) GETs the card once with
    A2ACardResolver (no cache, no conditional request; the adapter gives the
    candidate's origin and, unless it is the well-known path, its path) and
    verifies no signature (signature_verifier is opt-in). It sends the
    header A2A-Version: 1.0 on the card fetch and on every call (the
    factory sets it on the httpx client);
  * the card is read 1.0-first: supportedInterfaces as given; a card
    without them gets one interface built from the 0.3 url,
    preferredTransport, protocolVersion (default 0.3.0) and
    additionalInterfaces. A hybrid card's supportedInterfaces therefore
    win over its url;
  * the transport: the default ClientConfig supports JSON-RPC only and
    follows the server's order (use_client_preference False), so it takes
    the first JSONRPC entry of supportedInterfaces, then, among the JSONRPC
    entries, the one of protocolVersion 1.0 (else the lowest above 1.0,
    else the first at or above 0.3, else one without a version). An
    interface of version 0.3 gets the compat transport (message/send,
    message/stream, 0.3 shapes); any other the 1.0 one (SendMessage,
    SendStreamingMessage). A card with no JSONRPC interface fails with "no
    compatible transports found" (version-mismatch here). gRPC and
    HTTP+JSON are used only when the application lists them in
    ClientConfig.supported_protocol_bindings, which --bindings does (below);
  * with --bindings (e.g. JSONRPC,HTTP+JSON,GRPC) the ClientConfig's
    supported_protocol_bindings are those, still in the server's order: the
    first entry of supportedInterfaces whose binding is listed picks the
    binding, then the best version among that binding's entries as above.
    A GRPC interface gets the SDK's GrpcTransport (1.0; CompatGrpcTransport
    for 0.3) on the channel ClientConfig.grpc_channel_factory makes for the
    interface's url: the SDK sends the metadata a2a-version: 1.0 (0.3 on
    the compat transport) on every call, and its call context's service
    parameters lowercased as metadata (the AuthInterceptor's authorization
    or API key, with_a2a_extensions' a2a-extensions); no deadline unless
    the call context sets one (it does not here); a gRPC status becomes the
    A2AError of its google.rpc.ErrorInfo reason (domain a2a-protocol.org),
    else A2AClientError("gRPC Error CODE: ..."), DEADLINE_EXCEEDED
    A2AClientTimeoutError. The hello then declares those bindings;
    without --bindings it declares none, as before;
  * send_message streams (SendStreamingMessage) when ClientConfig.streaming
    (default True) and the card's capabilities.streaming are both set, else
    sends SendMessage. Client.send_message has no per-call choice; the
    only knob is the client-wide ClientConfig.streaming, which the adapter
    leaves at its default, so task.preferStreaming is not honoured: every
    card that says streaming is streamed to. (Setting streaming from
    preferStreaming would turn LIFE-003.DONE from PASS to FAIL and
    LIFE-004.STOP from PASS to NOT_EXERCISED: the plain send comes back at
    working and the SDK does not follow it);
  * ClientConfig.polling is False: a non-streaming send returns the task as
    the agent answered it and the SDK polls nothing (tasks/get is the
    caller's job), so a task answered at submitted or working is reported
    failed with that state;
  * HTTP goes through httpx with its defaults (5 s timeout on connect and
    on every read, a stalled stream included); errors are exceptions: an
    HTTP status is A2AClientError("HTTP Error 401: ..."), a JSON-RPC error
    the A2AError class of its code with the server's message, a stream
    answered with plain JSON is read as a JSON-RPC response;
  * no probe, no retry, no re-fetch, no fallback to another interface or
    candidate: only the first candidate is tried (the SDK knows one agent
    per client).

What the adapter passes through the SDK's own hooks:

  * the skill id: SendMessageRequest.metadata.skillId (params.metadata on
    the wire) and message.metadata.skillId;
  * the task's message, 0.3-shaped in the request, is decoded with the
    SDK's own 0.3 model and conversions.to_core_message;
  * trust.credentials: the SDK's AuthInterceptor with its
    InMemoryContextCredentialStore, keyed by session: the session is the
    endpoint's origin (ClientCallContext.state["sessionId"]), and the
    store holds the credential issued for that origin under each of the
    card's scheme names that fits its kind (bearer: http bearer, oauth2,
    openIdConnect; apiKey: an API key scheme). The interceptor presents it
    only when the card lists the scheme in securityRequirements (0.3
    "security" is mapped to them), as Authorization: Bearer or the API
    key's header;
  * task.extensions: the SDK's own extension API, the call context's
    service_parameters built with with_a2a_extensions (A2A-Extensions on
    a 1.0 interface; the 0.3 compat transport mirrors it as
    X-A2A-Extensions), on every call. The SDK does not compare the
    card's required extensions with them: a card requiring one the
    caller lacks is sent to, and its -32008 (ExtensionSupportRequiredError)
    reported as extension-unsupported;
  * network.proxy and trust.caFile: the httpx.AsyncClient given as
    ClientConfig.httpx_client (the card fetch uses it too), with the proxy
    and an SSL context of httpx's default roots (certifi) plus the fleet
    CA; nothing else of httpx's defaults changes. Each certificate of
    trust.clientCertificates is loaded (load_cert_chain) into an SSL
    context of its own, on an httpx.AsyncHTTPTransport the client mounts
    for that origin alone (httpx's mounts=, its way to configure a host;
    its client-wide cert= would present it to every host that asks). An
    httpx response hook
    watches (does not change) the traffic: the URL of the last POST that
    was answered is the agent reported (none when the endpoint could not be
    reached), and a 401 says whether the credential presented was refused.

The gRPC channel (--bindings with GRPC) is the application's, the SDK's
hook for it being grpc_channel_factory(url): the adapter accepts the url
as host:port (the proto's form) or an https URL, and makes a grpc.aio
secure channel to host:port (443 by default) whose roots are certifi's plus
trust.caFile, with the client certificate of trust.clientCertificates for
that origin (none for others: the factory is per interface), through
network.proxy as gRPC's grpc.http_proxy channel argument (an HTTP CONNECT
to host:port; without one, gRPC reads https_proxy from the environment).
Its interceptors watch each call as the httpx hook does: the origin is the
agent reported once a call was answered (a status other than UNAVAILABLE),
and UNAUTHENTICATED (A2A 1.0 §10.6's 401) says whether a credential was
in its metadata.

What the SDK cannot be told: network.resolve (httpx has no name override;
without a proxy the adapter leaves httpx to HTTPS_PROXY from the
environment, which the exec driver sets); trust.issuers (it has no signer
policy; signature_verifier is a bare callable the application must write).

Conversations: a task the SDK leaves at input-required gets the caller's
next answer (task.replies) by the same Client.send_message, the message's
task_id and context_id set to the task's (A2A 1.0 §3.4.3), until the task
ends, pauses otherwise, or asks once more than there are answers.

Outcome: completed for a task seen in state completed, or a Message reply
(A2A: the agent answered and made no task); interrupted for a task at
input-required or auth-required; failed otherwise, with the SDK's error.
cardTrust "authoritative" and trustMode "unpinned" once a card was read.
With it: the task's contextId; its artifacts (the task's, and the
TaskArtifactUpdateEvents' chunks joined as append says; a Message reply's
parts as one artifact), read from the SDK's protobuf objects
(MessageToDict) and summarised by the kit; the text of the last status
message; and the A2A error the SDK raised: the JSON-RPC code its error
class stands for and the server's message (the SDK keeps the ErrorInfo's
metadata but not its reason; a code it does not know becomes an
A2AClientError whose text names the code, which is read from it).

    a2a-conform run --orchestrator 'exec:examples/adapters/a2a-sdk/.venv/bin/python examples/adapters/a2a-sdk/adapter.py'
    a2a-conform run --orchestrator 'exec:examples/adapters/a2a-sdk/.venv/bin/python examples/adapters/a2a-sdk/adapter.py --bindings JSONRPC,HTTP+JSON,GRPC'
"""

import os
import sys
import urllib.parse

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "internal-python"))

from a2a_conform_contract import (  # noqa: E402
    Credentials,
    Results,
    bindings_option,
    client_cert_for,
    client_cert_mounts,
    continuation,
    describe,
    extensions_of,
    grpc_target,
    is_interrupted,
    origin_of,
    reason_for,
    remote_error,
    replies_of,
    serve,
    skill_of,
    state_word,
    status_text,
)

NAME = "a2a-conform-adapter-a2a-sdk"
WELL_KNOWN = "/.well-known/agent-card.json"


def sdk_version():
    """The installed a2a-sdk's version."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("a2a-sdk")
    except PackageNotFoundError:
        return "unknown"


def load():
    """Import the SDK (after hello, or within the startup grace)."""
    import a2a.client  # noqa: F401 - the import is the cost being moved
    import httpx  # noqa: F401

    if BINDINGS and "GRPC" in BINDINGS:
        import a2a.client.transports.grpc  # noqa: F401 - grpcio, from a2a-sdk[grpc]

    return Adapter(BINDINGS)


class Seen:
    """What the httpx event hooks saw in one delegation: the URL of the
    last POST that was answered (the endpoint the SDK called; none when it
    could not be reached) and 401s."""

    def __init__(self, creds):
        self.creds = creds
        self.posted = ""
        self.grpc_endpoint = ""  # the origin of the gRPC channel made
        self.grpc_calls = set()  # the watchers of its calls (grpc_watchers)

    async def settle(self):
        """Wait for the watchers of the gRPC calls made (each ends with its
        call; closing the channel ends every call)."""
        import asyncio

        if self.grpc_calls:
            await asyncio.wait(self.grpc_calls, timeout=0.5)

    async def response(self, response):
        if response.request.method == "POST":
            self.posted = str(response.request.url.copy_with(query=None, fragment=None))
        if response.status_code != 401:
            return
        held = self.creds.held.get(origin_of(str(response.request.url))) or {}
        value = held.get("value")
        self.creds.saw(401, presented_in(response.request.headers.items(), value))


def presented_in(pairs, value):
    """Whether a credential value was sent in any of the (name, value)
    header or metadata pairs."""
    return bool(value) and any(value in str(v) for _, v in pairs or [])


def grpc_watchers(seen):
    """gRPC client interceptors for the channel the adapter makes, the
    counterpart of the httpx response hook: they watch (do not change) each
    call and, once it ends, note in seen whether the endpoint answered
    (any status but UNAVAILABLE, or response headers) and an
    UNAUTHENTICATED status (A2A 1.0 §10.6: HTTP 401) with whether a
    credential was presented in its metadata."""
    import asyncio

    import grpc

    async def after(details, call):
        try:
            code = await call.code()
            headers = await call.initial_metadata()
        except (asyncio.CancelledError, grpc.RpcError):
            return
        if code != grpc.StatusCode.UNAVAILABLE or headers:
            seen.posted = seen.grpc_endpoint
        if code == grpc.StatusCode.UNAUTHENTICATED:
            held = seen.creds.held.get(origin_of(seen.grpc_endpoint)) or {}
            seen.creds.saw(401, presented_in(details.metadata, held.get("value")))

    def watch(details, call):
        task = asyncio.ensure_future(after(details, call))
        seen.grpc_calls.add(task)

    class Unary(grpc.aio.UnaryUnaryClientInterceptor):
        async def intercept_unary_unary(self, continuation, details, request):
            call = await continuation(details, request)
            watch(details, call)
            return call

    class Stream(grpc.aio.UnaryStreamClientInterceptor):
        async def intercept_unary_stream(self, continuation, details, request):
            call = await continuation(details, request)
            watch(details, call)
            return call

    return [Unary(), Stream()]


def grpc_channel_factory(req, seen):
    """ClientConfig.grpc_channel_factory: for the GRPC interface's url (host:port,
    or an https URL), a grpc.aio secure channel that trusts certifi's roots
    plus trust.caFile, presents the client certificate the request holds
    for that origin (trust.clientCertificates; none otherwise), goes
    through network.proxy (gRPC's grpc.http_proxy channel argument: an HTTP
    CONNECT to host:port; without one gRPC reads https_proxy from the
    environment, which the exec driver sets) and carries the watching
    interceptors. gRPC's defaults otherwise."""
    import certifi
    import grpc

    def factory(url):
        target, origin = grpc_target(url)
        seen.grpc_endpoint = origin
        with open(certifi.where(), "rb") as f:
            roots = f.read()
        ca = (req.get("trust") or {}).get("caFile")
        if ca:
            with open(ca, "rb") as f:
                roots += b"\n" + f.read()
        key = chain = None
        files = client_cert_for(req, origin)
        if files:
            with open(files[0], "rb") as f:
                chain = f.read()
            with open(files[1], "rb") as f:
                key = f.read()
        creds = grpc.ssl_channel_credentials(root_certificates=roots, private_key=key, certificate_chain=chain)
        proxy = (req.get("network") or {}).get("proxy")
        options = [("grpc.http_proxy", proxy)] if proxy else []
        return grpc.aio.secure_channel(target, creds, options=options, interceptors=grpc_watchers(seen))

    return factory


def http_client(req, seen):
    """The httpx.AsyncClient the SDK is given: network.proxy, httpx's
    default roots plus trust.caFile, each client certificate on a transport
    mounted for its origin, the watching hooks; httpx defaults otherwise."""
    import ssl

    import certifi
    import httpx

    def context():
        ctx = ssl.create_default_context(cafile=certifi.where())
        ca = (req.get("trust") or {}).get("caFile")
        if ca:
            ctx.load_verify_locations(cafile=ca)
        return ctx

    proxy = (req.get("network") or {}).get("proxy") or None
    # trust.clientCertificates: a transport per origin, mounted for that
    # origin alone, whose SSL context holds its certificate (httpx's way to
    # route by host; its client-wide cert= would show it to every host).
    mounts = client_cert_mounts(req, lambda ctx: httpx.AsyncHTTPTransport(verify=ctx, proxy=proxy), context)
    return httpx.AsyncClient(proxy=proxy, verify=context(), mounts=mounts, event_hooks={"response": [seen.response]})


def sdk_message(req, m=None):
    """The request's 0.3-shaped message (or m, a reply) as the SDK's 1.0
    Message, through the SDK's own 0.3 model and conversion, with the skill
    id in its metadata."""
    import uuid

    from a2a.compat.v0_3 import conversions
    from a2a.compat.v0_3 import types as v03

    m = dict(m if m is not None else ((req.get("task") or {}).get("message")) or {})
    m.setdefault("messageId", "m-" + uuid.uuid4().hex[:12])
    m.setdefault("role", "user")
    m["kind"] = "message"
    m["parts"] = [dict(p, kind=p.get("kind") or ("text" if "text" in p else "data" if "data" in p else "file"))
                  for p in m.get("parts") or [] if isinstance(p, dict)]
    msg = conversions.to_core_message(v03.Message.model_validate(m))
    if skill_of(req):
        msg.metadata.update({"skillId": skill_of(req)})
    return msg


def fits(scheme, cred):
    """The credential's kind fits the card's scheme as the SDK's
    AuthInterceptor would present it."""
    if cred.get("scheme") == "bearer":
        if scheme.HasField("http_auth_security_scheme"):
            return scheme.http_auth_security_scheme.scheme.lower() == "bearer"
        return scheme.HasField("oauth2_security_scheme") or scheme.HasField("open_id_connect_security_scheme")
    if cred.get("scheme") == "apiKey":
        return scheme.HasField("api_key_security_scheme")
    return False


async def credential_store(card, origin, creds):
    """The SDK's InMemoryContextCredentialStore holding, for session origin,
    the credential issued for that origin under each scheme of the card it
    fits."""
    from a2a.client import InMemoryContextCredentialStore

    store = InMemoryContextCredentialStore()
    cred = creds.held.get(origin)
    if cred and cred.get("value"):
        for name, scheme in card.security_schemes.items():
            if fits(scheme, cred):
                await store.set_credentials(origin, name, cred["value"])
    return store


def service_parameters(req):
    """The call context's service parameters activating the caller's
    extensions (task.extensions) with the SDK's with_a2a_extensions; None
    when it implements none."""
    from a2a.client.service_parameters import ServiceParametersFactory, with_a2a_extensions

    exts = extensions_of(req)
    return ServiceParametersFactory.create([with_a2a_extensions(exts)]) if exts else None


def card_location(url):
    """create_from_url's base URL and relative card path for a card URL."""
    u = urllib.parse.urlsplit(url)
    base = "%s://%s" % (u.scheme, u.netloc)
    path = u.path + ("?" + u.query if u.query else "")
    return base, (None if path == WELL_KNOWN else path or "/")


def error_code(err):
    """The JSON-RPC code of an SDK error raised for one, else None."""
    from a2a.utils.errors import JSON_RPC_ERROR_CODE_MAP

    return JSON_RPC_ERROR_CODE_MAP.get(type(err))


def reason_of(err, creds, streamed=False):
    """The reason word for an SDK error. The SDK's A2AClientTimeoutError is
    httpx's own 5 s timeout, not the delegation's deadline (the contract
    module answers that one itself): on a stream it is a stall past the
    wait the client allows (stream-timeout), elsewhere other."""
    from a2a.client import A2AClientTimeoutError

    code = error_code(err)
    if code == -32601:
        return "endpoint-not-a2a"
    if code == -32009:
        return "version-mismatch"
    if code == -32008:
        return "extension-unsupported"
    if isinstance(err, A2AClientTimeoutError) and not creds.refusal:
        return "stream-timeout" if streamed else "other"
    return reason_for(err, creds.refusal)


def sdk_error(err):
    """The outcome's error for an SDK error: the code of its class and the
    server's message, or the code an A2AClientError's text names for a
    code the SDK does not know; None for any other error."""
    import re

    code = error_code(err)
    if code is not None:
        return remote_error(code, "", getattr(err, "message", "") or str(err))
    m = re.match(r"JSON-RPC Error (-?\d+): (.*)", str(err), re.S)
    return remote_error(int(m.group(1)), "", m.group(2)) if m else None


def detail_of(err):
    """The SDK's error, with its class and JSON-RPC code."""
    code = error_code(err)
    text = "%s: %s" % (type(err).__name__, describe(err))
    return text + (" (code %d)" % code if code is not None else "")


def built_from(client, seen):
    """The card a client was built from and the URL of the interface it
    chose. BaseClient has no getters for either, so they are read from its
    attributes (the transport's url, under a TenantTransportDecorator's
    _base when the interface names a tenant); a gRPC transport has none,
    and its endpoint is the origin of the channel the factory made."""
    transport = getattr(client, "_transport", None)  # noqa: SLF001
    url = getattr(transport, "url", None) or getattr(getattr(transport, "_base", None), "url", "")
    if not url and hasattr(getattr(transport, "_base", transport), "channel"):
        url = seen.grpc_endpoint
    return client._card, url  # noqa: SLF001


class Tracker:
    """Task id, context, state, whether a Message came back, the last
    status message's text and the results, from the StreamResponse items
    send_message yields."""

    def __init__(self):
        self.task_id = ""
        self.context_id = ""
        self.state = ""
        self.message = False
        self.status_text = ""
        self.results = Results()

    def see(self, ev):
        from google.protobuf.json_format import MessageToDict

        kind = ev.WhichOneof("payload")
        if kind == "task":
            self.task_id = ev.task.id or self.task_id
            self.context_id = ev.task.context_id or self.context_id
            self._status(ev.task.status)
            for a in ev.task.artifacts:
                self.results.add(MessageToDict(a))
        elif kind == "message":
            self.message = True
            self.task_id = ev.message.task_id or self.task_id
            self.context_id = ev.message.context_id or self.context_id
            self.results.reply(MessageToDict(ev.message).get("parts"))
        elif kind == "status_update":
            self.task_id = ev.status_update.task_id or self.task_id
            self.context_id = ev.status_update.context_id or self.context_id
            self._status(ev.status_update.status)
        elif kind == "artifact_update":
            self.task_id = ev.artifact_update.task_id or self.task_id
            self.context_id = ev.artifact_update.context_id or self.context_id
            self.results.chunk(MessageToDict(ev.artifact_update.artifact), ev.artifact_update.append)

    def _status(self, status):
        from a2a.types.a2a_pb2 import TaskState
        from google.protobuf.json_format import MessageToDict

        self.state = state_word(TaskState.Name(status.state)) or self.state
        if status.HasField("message"):
            self.status_text = status_text(MessageToDict(status.message))


class Adapter:
    """One delegation at a time through a fresh SDK client. bindings, when
    given (--bindings), are ClientConfig.supported_protocol_bindings; None
    leaves the default ClientConfig's (JSON-RPC only)."""

    def __init__(self, bindings=None):
        self.bindings = bindings

    async def delegate(self, req):
        cands = req.get("candidates") or []
        if not cands:
            return {"outcome": "failed", "reason": "other", "detail": "no candidates"}
        creds = Credentials(req)
        seen = Seen(creds)
        http = http_client(req, seen)
        try:
            return await self._delegate(req, cands[0], creds, seen, http)
        finally:
            await http.aclose()

    async def _delegate(self, req, cand, creds, seen, http):
        from a2a.client import AgentCardResolutionError, AuthInterceptor, ClientCallContext, ClientConfig, ClientFactory
        from a2a.types.a2a_pb2 import SendMessageRequest

        out = {}
        if skill_of(req):
            out["skill"] = skill_of(req)
        config = ClientConfig(httpx_client=http)  # the default, but for the httpx client
        if self.bindings:
            config.supported_protocol_bindings = list(self.bindings)
            if "GRPC" in self.bindings:
                config.grpc_channel_factory = grpc_channel_factory(req, seen)
        factory = ClientFactory(config)
        base, path = card_location(cand)
        try:
            client = await factory.create_from_url(base, relative_card_path=path)
        except AgentCardResolutionError as err:
            return dict(out, outcome="failed", reason=reason_of(err, creds), detail="create_from_url: " + detail_of(err))
        except ValueError as err:  # the card was read; the SDK found no interface it may use
            return dict(out, outcome="failed", reason=reason_of(err, creds), cardTrust="authoritative", trustMode="unpinned",
                        detail="create_from_url: " + detail_of(err))
        out.update(cardTrust="authoritative", trustMode="unpinned")
        card, endpoint = built_from(client, seen)
        session = origin_of(endpoint)
        # The endpoint is known once the client is built: the auth hook goes
        # on then (Client.add_interceptor), before any call.
        await client.add_interceptor(AuthInterceptor(await credential_store(card, session, creds)))

        request = SendMessageRequest(message=sdk_message(req))
        if skill_of(req):
            request.metadata.update({"skillId": skill_of(req)})
        context = ClientCallContext(state={"sessionId": session}, service_parameters=service_parameters(req))
        sdk_streams = config.streaming and card.capabilities.streaming  # send_message's own test
        how = "send_message (%s)" % ("SendStreamingMessage" if sdk_streams else "SendMessage")
        t = Tracker()
        try:
            await self._converse(client, request, context, req, t)
        except Exception as err:  # noqa: BLE001 - every SDK failure is an outcome
            await seen.settle()  # the call that failed has ended: its watcher is done or about to be
            self._note(out, seen, t)
            if sdk_error(err):
                out["error"] = sdk_error(err)
            return dict(out, outcome="failed", reason=reason_of(err, creds, sdk_streams),
                        detail="%s to %s: %s" % (how, endpoint, detail_of(err)))
        finally:
            await client.close()
        await seen.settle()
        self._note(out, seen, t)
        if t.state == "completed" or (t.message and not t.state):
            return dict(out, outcome="completed", reason="ok", detail="a2a-sdk %s via %s" % (how, out.get("agent")))
        if is_interrupted(t.state) and t.task_id:
            return dict(out, outcome="interrupted", reason="ok", detail='%s: remote task waits in state "%s"' % (how, t.state))
        return dict(out, outcome="failed", reason="other",
                    detail='%s: remote task %s ended in state "%s"' % (how, t.task_id or "(none)", t.state or "unknown"))

    @staticmethod
    async def _converse(client, request, context, req, t):
        """send_message, then each reply as a continuation while the task
        waits at input-required."""
        from a2a.types.a2a_pb2 import SendMessageRequest

        async for ev in client.send_message(request, context=context):
            t.see(ev)
        for reply in replies_of(req):
            if t.state != "input-required" or not t.task_id:
                return
            t.message = False
            nxt = SendMessageRequest(message=sdk_message(req, continuation(reply, t.task_id, t.context_id)))
            nxt.metadata.CopyFrom(request.metadata)
            async for ev in client.send_message(nxt, context=context):
                t.see(ev)

    @staticmethod
    def _note(out, seen, t):
        if seen.posted:
            out["agent"] = seen.posted
        if t.task_id:
            out["taskId"] = t.task_id
        if t.context_id:
            out["contextId"] = t.context_id
        if t.state:
            out["taskState"] = t.state
        if t.status_text:
            out["statusText"] = t.status_text
        t.results.report(out)


# --bindings JSONRPC,HTTP+JSON,GRPC: the bindings the SDK is configured with
# (ClientConfig.supported_protocol_bindings) and the hello declares; absent,
# the default ClientConfig (JSON-RPC only) and a hello that declares none.
BINDINGS = bindings_option(sys.argv[1:])

if __name__ == "__main__":
    serve(NAME, "a2a-sdk@" + sdk_version(), load, BINDINGS)
