"""The driver contract for the Python framework adapters (a2a-sdk/,
adk-python/, strands/): the NDJSON loop and the little glue each library
needs, so that an adapter is about its library and not about the protocol.
Standard library only; each adapter puts this directory on sys.path.

What it does, and why:

  * stdout is the NDJSON channel. Libraries print and log there, so serve()
    first keeps a duplicate of file descriptor 1 for contract messages and
    points descriptor 1 (and sys.stdout) at stderr: print(), logging and C
    extensions writing to fd 1 all land in stderr, which the harness keeps.
  * hello is answered at once and the library is imported (load) in a
    thread after that, so a library that takes seconds to import does not
    miss the driver's 2 s hello wait; the loop goes on reading, so the first
    delegation's deadline counts from when the harness sent it. Run with
    --startup-grace, the driver says so (A2A_CONFORM_STARTUP_GRACE_MS): then
    the import comes first and hello is answered when it is done (or a
    second before the grace runs out), which keeps it out of the deadline.
  * each delegation gets deadlineMs less MARGIN seconds; if the library has
    not returned by then, its task is cancelled and the loop answers
    failed/deadline itself, so every request gets an outcome.
  * the network needs no glue: the exec driver sets HTTPS_PROXY and
    SSL_CERT_FILE, which httpx (trust_env, the default) and Python's ssl
    defaults read.

An adapter calls serve(name, version, load): load() imports the library and
returns an object with an async delegate(request) giving the outcome's
fields (a dict) and, optionally, reset(). serve's bindings and
protocol_versions, when given, go into the hello answer (the driver
contract's hello: the A2A bindings, "JSONRPC", "HTTP+JSON", "GRPC", and the
versions, "0.3", "1.0", the client speaks), so that a check about a binding
the client does not speak is not applicable to it rather than failed.
"""

import asyncio
import hmac
import json
import os
import re
import secrets
import sys
import time
import urllib.parse

CONTRACT = 1
MARGIN = 0.5  # seconds kept back from deadlineMs so the outcome is written in time
DEFAULT_DEADLINE = 20.0

_started = time.monotonic()
_out = None


def _claim_stdout():
    """Keep fd 1 for the contract; send every other write to stdout to stderr."""
    global _out
    fd = os.dup(1)
    os.dup2(2, 1)
    _out = os.fdopen(fd, "w", buffering=1, encoding="utf-8")
    sys.stdout = sys.stderr


def _send(obj):
    _out.write(json.dumps(obj, separators=(",", ":"), ensure_ascii=False) + "\n")
    _out.flush()


def hello_answer(name, version, bindings=None, protocol_versions=None):
    """The hello answer: name and version, and what the client declares it
    speaks (omitted when not given: the harness then reads the wire)."""
    out = {"contract": CONTRACT, "type": "hello", "name": name, "version": version}
    if bindings:
        out["bindings"] = list(bindings)
    if protocol_versions:
        out["protocolVersions"] = list(protocol_versions)
    return out


def serve(name, version, load, bindings=None, protocol_versions=None):
    """Run the contract loop until stdin ends, then exit."""
    _claim_stdout()
    hello = hello_answer(name, version, bindings, protocol_versions)
    try:
        asyncio.run(_loop(hello, load))
    finally:
        _out.flush()
    os._exit(0)  # threads a library left behind must not hold the process


async def _loop(hello, load):
    loaded = None
    abandoned = set()

    def impl():
        nonlocal loaded
        if loaded is None:
            loaded = asyncio.ensure_future(asyncio.to_thread(load))
        return loaded

    while True:
        line = await asyncio.to_thread(sys.stdin.buffer.readline)
        read_at = time.monotonic()
        if not line:
            break
        if not line.strip():
            continue
        try:
            msg = json.loads(line)
        except ValueError as err:
            sys.stderr.write("skipped a line that is not JSON: %s\n" % err)
            continue
        kind = msg.get("type") if isinstance(msg, dict) else None
        if kind == "hello":
            await _until_grace_ends(impl())
            _send(hello)
        elif kind == "reset":
            try:
                got = await impl()
                if hasattr(got, "reset"):
                    res = got.reset()
                    if asyncio.iscoroutine(res):
                        await res
            except Exception as err:  # noqa: BLE001 - any failure is only noted
                sys.stderr.write("reset: %s\n" % describe(err))
            _send({"contract": CONTRACT, "type": "reset", "ok": True})
        elif kind in ("delegate", None, ""):
            out = await _run(impl, msg, read_at, abandoned)
            _send(dict(out, contract=CONTRACT, id=msg.get("id", "")))
        else:
            sys.stderr.write("skipped a message of type %s\n" % json.dumps(kind))
    # stdin closed: let cancelled work finish its cleanup for a moment (the
    # driver allows 1 s).
    if abandoned:
        await asyncio.wait(abandoned, timeout=0.5)


async def _until_grace_ends(fut):
    """Wait for fut while the startup grace the driver gives lasts, less a
    second for the hello answer to arrive; without one, not at all."""
    try:
        grace = float(os.environ.get("A2A_CONFORM_STARTUP_GRACE_MS", "0")) / 1000
    except ValueError:
        grace = 0
    left = grace - 1 - (time.monotonic() - _started)
    if left <= 0:
        return
    await asyncio.wait({fut}, timeout=left)


async def _run(impl, req, read_at, abandoned):
    deadline = (req.get("deadlineMs") or 0) / 1000 or DEFAULT_DEADLINE
    budget = max(deadline - MARGIN, deadline / 2) - (time.monotonic() - read_at)

    async def work():
        got = await impl()
        return await got.delegate(req)

    task = asyncio.ensure_future(work())
    try:
        return await asyncio.wait_for(asyncio.shield(task), max(budget, 0))
    except asyncio.TimeoutError:
        task.cancel()
        abandoned.add(task)
        task.add_done_callback(abandoned.discard)
        return {"outcome": "failed", "reason": "deadline",
                "detail": "no result from the library within %d ms of the request" % ((deadline - MARGIN) * 1000)}
    except Exception as err:  # noqa: BLE001 - every failure is an outcome
        return {"outcome": "failed", "reason": reason_for(err), "detail": "adapter error: " + describe(err)}


def describe(err):
    """One line for an error and its causes."""
    parts, seen, e = [], set(), err
    while e is not None and id(e) not in seen and len(parts) < 4:
        seen.add(id(e))
        s = str(e) or type(e).__name__
        if not any(s in p for p in parts):
            parts.append(s)
        e = e.__cause__ or e.__context__
    return ": ".join(parts) or "unknown error"


# The errors the libraries give for a card that offers nothing they speak,
# and the agent's own -32009 (version not supported).
_UNSPOKEN = ("no compatible transport", "version not supported", "-32009", "versionnotsupported",
             "unsupported protocol version", "no supported interface")

# A library's own words for a card document it refused as invalid (failed
# validation, not an Agent Card). a2a-sdk 0.3's A2ACardResolver says "Failed
# to validate agent card structure" with pydantic's list of the members at
# fault ("loc"); see card_reason.
_BAD_CARD = ("failed to validate agent card", "invalid agent card", "agent card is invalid",
             "not a valid agent card", "agent card validation failed")


def card_reason(text):
    """invalid-card when the library's error says the card failed its
    validation; version-mismatch when a2a-sdk 0.3's pydantic validation
    faults the 0.3 url alone (a valid 1.0-only card has none: nothing this
    client speaks); None when text is no card validation error."""
    low = text.lower()
    if not any(b in low for b in _BAD_CARD):
        return None
    locs = set(re.findall(r'"loc":\["([^"]+)"', text.replace(" ", "").replace("\\\"", "\"")))
    locs |= set(re.findall(r"'loc':\('([^']+)'", text.replace(" ", "")))
    if locs == {"url"}:
        return "version-mismatch"
    return "invalid-card"


def reason_for(err, refusal=None):
    """A reason word for an error: deadline, refusal when given (what a 401
    meant), endpoint-not-a2a for -32601, extension-unsupported for -32008
    (ExtensionSupportRequired), invalid-card for a card the library says
    failed its validation (card_reason), version-mismatch for a card the
    library cannot speak to, or other."""
    if isinstance(err, (asyncio.TimeoutError, TimeoutError)) or type(err).__name__ in ("ReadTimeout", "A2AClientTimeoutError"):
        return "deadline"
    if refusal:
        return refusal
    text = describe(err).lower()
    if getattr(err, "code", None) == -32601 or "-32601" in text or "method not found" in text:
        return "endpoint-not-a2a"
    if getattr(err, "code", None) == -32008 or "-32008" in text or "extension support required" in text:
        return "extension-unsupported"
    card = card_reason(text)
    if card:
        return card
    if any(u in text for u in _UNSPOKEN):
        return "version-mismatch"
    return "other"


def state_word(state):
    """A task state as the 0.3 wire spells it ("input-required"), from an
    enum, a 1.0 proto name ("TASK_STATE_INPUT_REQUIRED") or a string; ""
    for none."""
    if state is None:
        return ""
    s = getattr(state, "value", state)
    if isinstance(s, int) and hasattr(state, "name"):
        s = state.name
    s = str(s)
    if s.startswith("TaskState."):
        s = s[len("TaskState."):]
    if s.upper().startswith("TASK_STATE_"):
        s = s[len("TASK_STATE_"):]
    s = s.lower().replace("_", "-")
    return "" if s in ("unspecified", "unknown") else s


def is_interrupted(state):
    """The task paused at a state where it waits for the caller."""
    return state_word(state) in ("input-required", "auth-required")


def base_of(card_url):
    """The base URL of a card URL that ends in the standard path, for
    libraries that take a base URL and append /.well-known/agent-card.json:
    the origin for a card at the root, the origin and the path before it
    for a card hosted below a path (https://host/agents/x); else the URL."""
    suffix = "/.well-known/agent-card.json"
    u = urllib.parse.urlsplit(card_url)
    if u.path.endswith(suffix) and not u.query and u.scheme and u.netloc:
        return "%s://%s%s" % (u.scheme, u.netloc, u.path[: -len(suffix)])
    return card_url


BINDINGS = ("JSONRPC", "HTTP+JSON", "GRPC")


def bindings_option(argv, default=None):
    """The bindings named by a --bindings option in argv ("--bindings
    JSONRPC,GRPC" or "--bindings=JSONRPC,GRPC"), in the order given, or
    default when there is none. A word that is no binding (BINDINGS) is a
    ValueError: a typo must not quietly leave a binding out."""
    value = None
    for i, a in enumerate(argv):
        if a == "--bindings" and i + 1 < len(argv):
            value = argv[i + 1]
        elif a.startswith("--bindings="):
            value = a[len("--bindings="):]
    if value is None:
        return default
    words = [w.strip() for w in value.split(",") if w.strip()]
    bad = [w for w in words if w not in BINDINGS]
    if bad or not words:
        raise ValueError("--bindings %r: each must be one of %s" % (value, ", ".join(BINDINGS)))
    return list(dict.fromkeys(words))


def grpc_target(url):
    """The gRPC target ("host:port") and the endpoint's https origin for a
    GRPC interface's url, which A2A 1.0 writes as host:port (the proto's
    AgentInterface comment) and some cards as an https URL; port 443 when
    none is given. The origin keys trust.credentials and
    trust.clientCertificates (port 443 left out, as the contract writes
    origins)."""
    raw = str(url).strip()
    u = urllib.parse.urlsplit(raw if "//" in raw else "//" + raw)
    if not u.hostname:
        raise ValueError("gRPC interface url %r names no host" % raw)
    host = u.hostname
    port = u.port or 443
    shown = "[%s]" % host if ":" in host else host
    origin = "https://" + shown + ("" if port == 443 else ":%d" % port)
    return "%s:%d" % (shown, port), origin


def origin_of(url):
    """The origin of url as trust.credentials keys it ("" when none)."""
    u = urllib.parse.urlsplit(str(url))
    return "%s://%s" % (u.scheme, u.netloc) if u.scheme and u.netloc else ""


def text_of(req):
    """The text parts of the request's message, joined by newlines."""
    msg = ((req.get("task") or {}).get("message")) or {}
    return "\n".join(p["text"] for p in msg.get("parts") or [] if isinstance(p, dict) and isinstance(p.get("text"), str))


def skill_of(req):
    """The skill id the caller asked for."""
    return (req.get("task") or {}).get("skill") or ""


def credential_headers(card, cred):
    """The header the card's security schemes ask for, holding cred
    ({scheme, value}): Authorization: Bearer for an HTTP bearer scheme, the
    named header for an API key scheme in a header; 0.3 or 1.0 shapes; {}
    when the card declares none of cred's kind."""
    schemes = (card or {}).get("securitySchemes") or {}
    for s in schemes.values():
        if not isinstance(s, dict):
            continue
        http = s.get("httpAuthSecurityScheme") or (s if s.get("type") == "http" else None)
        key = s.get("apiKeySecurityScheme") or (s if s.get("type") == "apiKey" else None)
        if cred.get("scheme") == "bearer" and http and str(http.get("scheme", "")).lower() == "bearer":
            return {"Authorization": "Bearer " + cred.get("value", "")}
        if cred.get("scheme") == "apiKey" and key and (key.get("location") or key.get("in")) == "header" and key.get("name"):
            return {key["name"]: cred.get("value", "")}
    return {}


class Credentials:
    """A request's trust.credentials for a library hook that sets headers
    per request: headers(url, card) gives the credential issued for url's
    origin the way the card declares it; saw(status, presented) notes a 401
    (to a credential presented: auth-rejected; to none: no-credential), and
    refusal says what the last one meant."""

    def __init__(self, req):
        self.held = (req.get("trust") or {}).get("credentials") or {}
        self.refusal = None

    def headers(self, url, card):
        cred = self.held.get(origin_of(url))
        return credential_headers(card, cred) if cred else {}

    def saw(self, status, presented):
        if status == 401:
            self.refusal = "auth-rejected" if presented else "no-credential"


def oauth_client_for(req, url, card):
    """The OAuth 2.0 client the request holds for url's origin
    (trust.oauth2: {tokenUrl, clientId, clientSecret, scopes}) when the
    card declares a client credentials flow (oauth2SecurityScheme in 1.0,
    type oauth2 in 0.3) whose tokenUrl is exactly the client's: the secret
    may go there and nowhere else. None otherwise."""
    client = ((req.get("trust") or {}).get("oauth2") or {}).get(origin_of(url))
    if not client:
        return None
    for s in ((card or {}).get("securitySchemes") or {}).values():
        if not isinstance(s, dict):
            continue
        o = s.get("oauth2SecurityScheme") or (s if s.get("type") == "oauth2" else None)
        flow = ((o or {}).get("flows") or {}).get("clientCredentials") or {}
        if flow.get("tokenUrl") == client.get("tokenUrl"):
            return client
    return None


def token_request(client):
    """The client credentials token request (RFC 6749 §4.4.2) for client,
    authenticated by HTTP Basic (§2.3.1: id and secret form-encoded first):
    (url, headers, body). The answer's access_token goes as Authorization:
    Bearer to the agent."""
    form = {"grant_type": "client_credentials"}
    if client.get("scopes"):
        form["scope"] = " ".join(client["scopes"])
    enc = urllib.parse.quote_plus
    basic = base64.b64encode(("%s:%s" % (enc(client["clientId"]), enc(client["clientSecret"]))).encode("utf-8")).decode("ascii")
    headers = {"Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json", "Authorization": "Basic " + basic}
    return client["tokenUrl"], headers, urllib.parse.urlencode(form)


def invalid_token(challenge):
    """Whether a 401's WWW-Authenticate says the bearer token expired or was
    revoked (RFC 6750 §3.1 error="invalid_token"): get a new token once and
    retry; a second refusal is final."""
    return 'error="invalid_token"' in str(challenge or "")


# --- Results and conversations (contract 1's optional fields) -------------
#
# The outcome may carry contextId, artifacts, statusText and error, and the
# request may carry task.replies (docs/driver-contract.md). The helpers
# below summarise results exactly as the Go contract package does
# (contract.SummarizeArtifact): each part reduced to its kind and the
# SHA-256 of its content bytes, the text parts joined with nothing between.
# They read A2A JSON as dicts in the 0.3 shape (kind + text/file/data) and
# the 1.0 shape (text/raw/url/data); a library's own objects are to be
# turned into such dicts first (pydantic model_dump(by_alias=True),
# protobuf MessageToDict). The shared vectors are
# contract/testdata/artifact-vectors.json (test_a2a_conform_contract.py).

import base64
import binascii
import hashlib
import math
import uuid


class PartError(ValueError):
    """A part that cannot be summarised (no content, bad base64, a data
    value that is not JSON)."""


def canonical_json(value):
    """value (as json.loads gives it) in the RFC 8785 (JCS) canonical form:
    object keys sorted by their UTF-16 code units, no whitespace, strings
    with only the escapes JSON requires, numbers as ECMAScript prints an
    IEEE double.

    json.dumps(value, sort_keys=True, separators=(",", ":"),
    ensure_ascii=False) gives the same bytes for strings, booleans, null and
    integers up to 2**53 in objects whose keys are all in the Basic
    Multilingual Plane, or all outside it, but not for: floats (1.0 is
    "1.0" there, "1" here; 1e-7 is "1e-07" there, "1e-7" here), integers
    past 2**53 (JCS rounds them to a double), and keys that mix characters
    above U+FFFF with ones from U+E000 to U+FFFF (Python sorts by code
    point, JCS by UTF-16 unit). Hence this function, which is exact."""
    if value is None or value is True or value is False:
        return json.dumps(value)
    if isinstance(value, (int, float)):
        return _es_number(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(canonical_json(v) for v in value) + "]"
    if isinstance(value, dict):
        keys = sorted(value, key=lambda k: k.encode("utf-16-be"))
        return "{" + ",".join(json.dumps(k, ensure_ascii=False) + ":" + canonical_json(value[k]) for k in keys) + "}"
    raise PartError("data part holds a %s, not a JSON value" % type(value).__name__)


def _es_number(n):
    """A number as ECMAScript's Number::toString prints the nearest double
    (RFC 8785 §3.2.2.3)."""
    try:
        f = float(n)
    except OverflowError as err:
        raise PartError("data part holds a number past a double's range") from err
    if math.isnan(f) or math.isinf(f):
        raise PartError("data part holds %r, which JSON cannot carry" % n)
    if f == 0:
        return "0"
    sign = "-" if f < 0 else ""
    digits, _, exp = ("%r" % abs(f)).partition("e")
    # repr gives the shortest digits that round-trip, as ECMAScript does;
    # only their layout differs. Reduce to digits d1..dk and exponent n:
    # the value is 0.d1..dk * 10**n.
    whole, _, frac = digits.partition(".")
    ds = (whole + frac).lstrip("0")
    point = len(whole) + int(exp or 0) - (len(whole + frac) - len((whole + frac).lstrip("0")))
    ds = ds.rstrip("0")
    k = len(ds)
    if k <= point <= 21:
        out = ds + "0" * (point - k)
    elif 0 < point <= 21:
        out = ds[:point] + "." + ds[point:]
    elif -6 < point <= 0:
        out = "0." + "0" * -point + ds
    else:
        e = point - 1
        out = ds[0] + ("." + ds[1:] if k > 1 else "") + "e" + ("+" if e > 0 else "-") + str(abs(e))
    return sign + out


def _sha256(kind, content):
    return {"kind": kind, "sha256": hashlib.sha256(content).hexdigest()}


def _b64(s):
    """Standard base64, padded or not (as the Go kit reads it)."""
    try:
        return base64.b64decode(s + "=" * (-len(s) % 4), validate=True)
    except (binascii.Error, ValueError) as err:
        raise PartError("file bytes: %s" % err) from err


def digest_part(part):
    """One A2A part (a dict, 0.3 or 1.0 shape) as ({"kind", "sha256"},
    text): text for a text part, "" for any other."""
    if not isinstance(part, dict):
        raise PartError("part is not a JSON object")
    f = part.get("file") if isinstance(part.get("file"), dict) else {}
    if isinstance(part.get("text"), str):
        return _sha256("text", part["text"].encode("utf-8")), part["text"]
    if isinstance(part.get("raw"), str):
        return _sha256("bytes", _b64(part["raw"])), ""
    if isinstance(part.get("url"), str):
        return _sha256("url", part["url"].encode("utf-8")), ""
    if isinstance(f.get("bytes"), str):
        return _sha256("bytes", _b64(f["bytes"])), ""
    if isinstance(f.get("uri"), str):
        return _sha256("url", f["uri"].encode("utf-8")), ""
    if part.get("data") is not None:
        return _sha256("data", canonical_json(part["data"]).encode("utf-8")), ""
    raise PartError("part has no text, raw, url, file or data")


def summarize_parts(parts):
    """The digests of parts in order and their text joined."""
    digests, text = [], []
    for i, p in enumerate(parts or []):
        try:
            d, t = digest_part(p)
        except PartError as err:
            raise PartError("parts[%d]: %s" % (i, err)) from err
        digests.append(d)
        text.append(t)
    return digests, "".join(text)


def summarize_artifact(artifact):
    """One whole A2A artifact (dict) as the outcome's artifacts entry:
    artifactId, name when it has one, the part digests, text when any."""
    digests, text = summarize_parts(artifact.get("parts"))
    out = {"artifactId": artifact.get("artifactId") or "", "parts": digests}
    if artifact.get("name"):
        out["name"] = artifact["name"]
    if text:
        out["text"] = text
    return out


class Results:
    """The artifacts one delegation saw, in the order the agent first
    announced them, with streamed chunks joined: add(artifact) for a
    task's artifacts, chunk(artifact, append) for an artifact update
    (append true: its parts go after those seen under that artifactId;
    false: it replaces them), reply(parts) for a Message reply (one
    artifact with an empty id). summaries() gives the outcome's list."""

    def __init__(self):
        self._order = []
        self._parts = {}
        self._names = {}

    def chunk(self, artifact, append=False):
        if not isinstance(artifact, dict):
            return
        key = artifact.get("artifactId") or ""
        if key not in self._parts:
            self._order.append(key)
            self._parts[key] = []
        if not append:
            self._parts[key] = []
        self._parts[key] = self._parts[key] + list(artifact.get("parts") or [])
        if artifact.get("name"):
            self._names[key] = artifact["name"]

    def add(self, artifact):
        self.chunk(artifact, append=False)

    def reply(self, parts):
        self.chunk({"artifactId": "", "parts": list(parts or [])}, append=False)

    def summaries(self):
        return [summarize_artifact({"artifactId": k, "name": self._names.get(k, ""), "parts": self._parts[k]})
                for k in self._order]

    def report(self, out):
        """Put the summaries in out["artifacts"] when there are any; a part
        that cannot be summarised is said in out["detail"] instead."""
        try:
            got = self.summaries()
        except PartError as err:
            out["detail"] = (out.get("detail", "") + "; " if out.get("detail") else "") + "artifacts not summarised: %s" % err
            return out
        if got:
            out["artifacts"] = got
        return out


def status_text(message):
    """The text parts of a status message (dict) joined with nothing
    between; "" for none."""
    if not isinstance(message, dict):
        return ""
    return "".join(p["text"] for p in message.get("parts") or [] if isinstance(p, dict) and isinstance(p.get("text"), str))


def replies_of(req):
    """The caller's answers (task.replies): A2A messages (dicts) to send,
    in order, each time the task pauses at input-required."""
    return [r for r in ((req.get("task") or {}).get("replies") or []) if isinstance(r, dict)]


def extensions_of(req):
    """The A2A extensions the caller implements, by URI (task.extensions):
    the only ones an adapter may activate. [] when none."""
    return [u for u in ((req.get("task") or {}).get("extensions") or []) if isinstance(u, str) and u]


def required_extensions(card):
    """The URIs of the extensions the card marks required: true
    (capabilities.extensions)."""
    exts = ((card or {}).get("capabilities") or {}).get("extensions") or []
    return [e["uri"] for e in exts if isinstance(e, dict) and e.get("required") is True and isinstance(e.get("uri"), str)]


def extension_header(card, req, version="1.0"):
    """How to activate extensions at an agent (A2A 1.0 §3.2.6, §4.6;
    contract task.extensions): (name, value, missing). name is the header
    the interface's version names (A2A-Extensions for 1.x,
    X-A2A-Extensions for 0.3); value the card's declared extensions the
    caller implements, comma-separated ("" for none: send no header);
    missing the card's required extensions the caller does not implement.
    A non-empty missing means the agent cannot be used: refuse it with
    reason extension-unsupported, naming them, before sending anything
    (A2A 1.0 §3.3.4)."""
    mine = extensions_of(req)
    exts = ((card or {}).get("capabilities") or {}).get("extensions") or []
    value = ",".join(e["uri"] for e in exts if isinstance(e, dict) and e.get("uri") in mine)
    name = "X-A2A-Extensions" if str(version).startswith("0.") else "A2A-Extensions"
    return name, value, [u for u in required_extensions(card) if u not in mine]


def continuation(reply, task_id, context_id):
    """A reply as the continuation of task task_id in context context_id
    (A2A 1.0 §3.4.3): its taskId and contextId set to the task's, a
    messageId and role user when it has none. The shape (0.3 or 1.0) is
    the reply's own."""
    m = dict(reply)
    m["taskId"] = task_id
    if context_id:
        m["contextId"] = context_id
    m.setdefault("messageId", "m-" + uuid.uuid4().hex[:12])
    m.setdefault("role", "user")
    return m


# Push notifications (contract task.push; A2A 1.0 §4.3.3, §13.2). An
# adapter whose library can receive webhooks runs the receiver itself;
# these are the parts every receiver needs.


def wants_push(req):
    """True when the caller asks to follow the task by push notifications."""
    return (req.get("task") or {}).get("push") is True


def push_credential():
    """A fresh credential for one push notification config (32 random
    bytes, base64url): register it as authentication {"scheme": "Bearer",
    "credentials": ...}, one per config (§13.2)."""
    return base64.urlsafe_b64encode(secrets.token_bytes(32)).rstrip(b"=").decode()


def push_authentic(headers, credential):
    """True when a delivery's headers (a mapping, names in any case) carry
    the credential registered for its config where a 1.0 sender puts it
    (Authorization: <scheme> <credentials>, §4.3.3), compared in constant
    time. A delivery for which it is False gets a 401 and is never acted
    on."""
    if not credential:
        return False
    got = ""
    for k, v in (headers or {}).items():
        if isinstance(k, str) and k.lower() == "authorization" and isinstance(v, str):
            got = v
    scheme, _, cred = got.partition(" ")
    return scheme.lower() == "bearer" and hmac.compare_digest(cred.encode(), credential.encode())


def push_task_id(body):
    """The id of the task a delivery's body (parsed JSON) is about: a 1.0
    StreamResponse's task.id, statusUpdate.taskId or artifactUpdate.taskId,
    or a 0.3 Task's id ("" for none). Compare it with the task the config
    was registered for (§4.3.3: validate the task ID)."""
    if not isinstance(body, dict):
        return ""
    o = body.get("task") or body.get("statusUpdate") or body.get("artifactUpdate") or body
    if not isinstance(o, dict):
        return ""
    tid = o.get("taskId") or o.get("id")
    return tid if isinstance(tid, str) else ""


def remote_error(code=None, reason="", message=""):
    """The outcome's error for an A2A error: {code, reason, message} with
    the ones known; None when neither a code nor a reason is."""
    out = {}
    if isinstance(code, int) and not isinstance(code, bool) and code:
        out["code"] = code
    if reason:
        out["reason"] = reason
    if not out:
        return None
    if message:
        out["message"] = message
    return out


ERROR_INFO = "type.googleapis.com/google.rpc.ErrorInfo"


def error_reason(data):
    """The google.rpc.ErrorInfo reason in an A2A error's details (A2A 1.0
    §5.4: a JSON-RPC error's data, a list of details or one), else ""."""
    for d in data if isinstance(data, list) else [data]:
        if isinstance(d, dict) and d.get("@type") == ERROR_INFO and isinstance(d.get("reason"), str):
            return d["reason"]
    return ""


# --- Client certificates (mutual TLS; contract 1's optional field) -------
#
# trust.clientCertificates holds, per origin, the files of a client
# certificate ({certFile, keyFile}, PEM). Present one only in TLS handshakes
# with its origin: load it (ssl.SSLContext.load_cert_chain) into the context
# used for that origin alone (for httpx: client_cert_mounts), never into one
# shared by every host, which would show it to every host that asks for a
# certificate (AUTH-010.ONLY-ORIGIN).


def declares_mtls(card):
    """Whether a card declares a mutual TLS security scheme:
    mtlsSecurityScheme (1.0) or type mutualTLS (0.3)."""
    schemes = (card or {}).get("securitySchemes") or {}
    return any(isinstance(s, dict) and (s.get("type") == "mutualTLS" or isinstance(s.get("mtlsSecurityScheme"), dict)) for s in schemes.values())


def client_cert_for(req, url):
    """The (certfile, keyfile) paths of the client certificate the request
    holds for url's origin, as ssl.SSLContext.load_cert_chain takes them, or
    None when it holds none."""
    held = ((req.get("trust") or {}).get("clientCertificates") or {}).get(origin_of(url)) or {}
    if not held.get("certFile") or not held.get("keyFile"):
        return None
    return held["certFile"], held["keyFile"]


def client_cert_mounts(req, transport, context):
    """httpx mounts that present each client certificate the request holds
    to its origin alone: {origin: transport(ctx)}, where ctx is a new
    context() (an ssl.SSLContext trusting what the client's own does) with
    the certificate loaded by load_cert_chain. An httpx client given them as
    mounts= routes a call to that origin through its own transport and
    connection pool, whose handshakes present the certificate; every other
    call goes through the client's transport, which has none. An empty dict
    means the request holds no certificate."""
    held = (req.get("trust") or {}).get("clientCertificates") or {}
    mounts = {}
    for origin in sorted(held):
        files = held[origin] if isinstance(held[origin], dict) else {}
        if not files.get("certFile") or not files.get("keyFile"):
            continue
        ctx = context()
        ctx.load_cert_chain(files["certFile"], files["keyFile"])
        mounts[origin] = transport(ctx)
    return mounts
