#!/usr/bin/env python3
"""a2a-conform exec adapter: a minimal hand-written A2A 0.3 client in Python.

Standard library only (http.client, ssl, json). It is the client many teams
write in an afternoon, and it is deliberately not clever:

  * it fetches the first candidate's card with a plain GET (no cache, no
    cache-bypass headers, a fresh fetch per delegation);
  * it POSTs JSON-RPC 2.0 ``message/send`` (``message/stream`` when
    task.preferStreaming is set and the card says streaming) in the 0.3
    shapes (``kind`` parts) to the card's ``url`` (or, for a card that only
    has the 1.0 ``supportedInterfaces``, the first JSONRPC entry), with the
    skill id in params.metadata.skillId and message.metadata.skillId;
  * a stream is read until the server closes it; a stream answered with
    plain JSON is read as a plain JSON-RPC response;
  * it tries the next candidate only when a card cannot be fetched or used,
    or the endpoint cannot be reached;
  * it activates the extensions of the card that the caller implements
    (task.extensions) in X-A2A-Extensions, the header of A2A 0.3, the
    version it speaks, on every call; a card that marks required an
    extension the caller does not implement is not used (A2A 1.0 §3.3.4:
    the card says it before any request), and the delegation fails with
    reason extension-unsupported, naming it, when no other candidate
    serves; a -32008 answer is extension-unsupported too;
  * it presents the credential trust.credentials holds for the endpoint's
    origin, if any, the way the card's securitySchemes say (Authorization:
    Bearer, or the API key header the scheme names; 0.3 or 1.0 shape);
  * when the task pauses at input-required and task.replies holds an
    answer, it sends the next one as a continuation (the same method, the
    message's taskId and contextId set to the task's, A2A 1.0 §3.4.3),
    until the task ends, asks once more than it has answers for, or pauses
    at auth-required;
  * it reports completed, interrupted (a task at input-required or
    auth-required) or failed with what it saw; cardTrust is always
    "authoritative" and trustMode "unpinned" (it verifies no signature).
    With it go the task's contextId, its artifacts (streamed chunks joined
    as append and lastChunk say; a Message reply's parts as one artifact),
    the text of the last status message and the JSON-RPC error that ended
    the delegation (its code, and the ErrorInfo reason in 1.0 error data),
    summarised by the Python kit (../internal-python, standard library
    too).

Network: every connection goes through network.proxy with an HTTP CONNECT
tunnel (HTTPSConnection.set_tunnel), or is dialled through network.resolve
when there is no proxy; TLS verifies against the system roots plus
trust.caFile. A client certificate of trust.clientCertificates is loaded
(SSLContext.load_cert_chain) into a TLS context of its own, used for the
connections to its origin alone, so no other host's handshake sees it.

    a2a-conform run --orchestrator 'exec:python3 examples/adapters/python/adapter.py'
"""

import http.client
import json
import os
import platform
import socket
import ssl
import sys
import time
import urllib.parse
import uuid

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "internal-python"))

import a2a_conform_contract as kit  # noqa: E402 - the results helpers only

NAME = "a2a-conform-adapter-python"
VERSION = "0.1.0 (python " + platform.python_version() + ", stdlib http.client)"
CONTRACT = 1
MARGIN = 0.5  # seconds kept back from deadlineMs so the outcome is written in time


class Unreachable(Exception):
    """The host could not be reached (dial, proxy, TLS): try the next candidate."""


class RPCError(Exception):
    """A JSON-RPC error answer."""

    def __init__(self, err):
        self.code = err.get("code") if isinstance(err, dict) else None
        self.message = err.get("message", "") if isinstance(err, dict) else str(err)
        self.reason = kit.error_reason(err.get("data")) if isinstance(err, dict) else ""
        super().__init__("%s (code %s)" % (self.message, self.code))


class DeadlineExceeded(Exception):
    pass


class Unauthorized(Exception):
    """HTTP 401 from the endpoint."""


class Net:
    """How to reach the fleet: proxy or resolve map, and the TLS contexts:
    one that verifies against the system roots plus trust.caFile, and one
    more for each origin of trust.clientCertificates, which also holds that
    origin's client certificate and serves its connections alone."""

    def __init__(self, req):
        trust = req.get("trust") or {}
        network = req.get("network") or {}
        self.ctx = self._context(trust)
        self.origin_ctx = {}
        for origin, held in (trust.get("clientCertificates") or {}).items():
            if isinstance(held, dict) and held.get("certFile") and held.get("keyFile"):
                ctx = self._context(trust)
                ctx.load_cert_chain(held["certFile"], held["keyFile"])
                self.origin_ctx[origin] = ctx
        self.proxy = network.get("proxy") or ""
        self.resolve = network.get("resolve") or {}

    @staticmethod
    def _context(trust):
        ctx = ssl.create_default_context()
        if trust.get("caFile"):
            ctx.load_verify_locations(cafile=trust["caFile"])
        return ctx

    def connection(self, url, timeout):
        u = urllib.parse.urlsplit(url)
        if u.scheme not in ("https", "http"):
            raise Unreachable("unsupported scheme in %s" % url)
        port = u.port or (443 if u.scheme == "https" else 80)
        host = u.hostname
        # The TLS context of the URL's origin: with its client certificate
        # when the caller holds one for it, without any otherwise.
        ctx = self.origin_ctx.get(origin_of(url), self.ctx)
        if self.proxy:
            p = urllib.parse.urlsplit(self.proxy)
            if u.scheme == "https":
                conn = http.client.HTTPSConnection(p.hostname, p.port or 80, timeout=timeout, context=ctx)
            else:
                conn = http.client.HTTPConnection(p.hostname, p.port or 80, timeout=timeout)
            conn.set_tunnel(host, port)
            return conn
        target = self.resolve.get("%s:%d" % (host, port))
        if u.scheme == "https":
            conn = http.client.HTTPSConnection(host, port, timeout=timeout, context=ctx)
        else:
            conn = http.client.HTTPConnection(host, port, timeout=timeout)
        if target:
            ip, _, tport = target.rpartition(":")

            def dial(conn=conn, ip=ip, tport=int(tport)):
                sock = socket.create_connection((ip, tport), conn.timeout)
                if isinstance(conn, http.client.HTTPSConnection):
                    sock = ctx.wrap_socket(sock, server_hostname=host)
                conn.sock = sock

            conn.connect = dial
        return conn


def request(net, method, url, body, headers, deadline):
    """One HTTP request; returns (status, content type, response)."""
    left = deadline - time.monotonic()
    if left <= 0:
        raise DeadlineExceeded("deadline passed before %s %s" % (method, url))
    u = urllib.parse.urlsplit(url)
    path = u.path or "/"
    if u.query:
        path += "?" + u.query
    conn = net.connection(url, left)
    try:
        conn.connect()
    except (OSError, ssl.SSLError, http.client.HTTPException) as e:
        conn.close()
        if isinstance(e, socket.timeout) and deadline - time.monotonic() <= 0.05:
            raise DeadlineExceeded(str(e))
        raise Unreachable("%s: %s" % (u.netloc, e))
    try:
        conn.request(method, path, body=body, headers=headers)
        resp = conn.getresponse()
    except socket.timeout as e:
        conn.close()
        raise DeadlineExceeded("%s %s: %s" % (method, url, e))
    return conn, resp


def fetch_card(net, url, deadline):
    conn, resp = request(net, "GET", url, None, {"Accept": "application/json"}, deadline)
    try:
        data = resp.read()
    finally:
        conn.close()
    if resp.status != 200:
        raise Unreachable("card %s: HTTP %d" % (url, resp.status))
    try:
        card = json.loads(data)
    except ValueError as e:
        raise Unreachable("card %s: not JSON: %s" % (url, e))
    if not isinstance(card, dict):
        raise Unreachable("card %s: not a JSON object" % url)
    return card


def endpoint_of(card):
    if isinstance(card.get("url"), str) and card["url"]:
        return card["url"]
    for iface in card.get("supportedInterfaces") or []:
        if isinstance(iface, dict) and iface.get("protocolBinding", "JSONRPC").upper() == "JSONRPC" and iface.get("url"):
            return iface["url"]
    return ""


def origin_of(url):
    """The https origin of url as trust.credentials keys it, or ""."""
    u = urllib.parse.urlsplit(url)
    if u.scheme != "https" or not u.hostname:
        return ""
    host = u.hostname
    if ":" in host:
        host = "[%s]" % host
    return "https://" + host + ("" if u.port in (None, 443) else ":%d" % u.port)


def auth_headers(card, cred):
    """The header the card's security schemes ask for, holding cred; {} when
    the card declares no scheme of cred's kind."""
    if not isinstance(cred, dict) or not cred.get("value"):
        return {}
    schemes = card.get("securitySchemes")
    for s in (schemes.values() if isinstance(schemes, dict) else []):
        if not isinstance(s, dict):
            continue
        # 1.0 shape: {"httpAuthSecurityScheme": {...}}; 0.3: {"type": "http", ...}.
        http_auth = s.get("httpAuthSecurityScheme") or (s if s.get("type") == "http" else None)
        api_key = s.get("apiKeySecurityScheme") or (s if s.get("type") == "apiKey" else None)
        if cred.get("scheme") == "bearer" and isinstance(http_auth, dict) and str(http_auth.get("scheme", "")).lower() == "bearer":
            return {"Authorization": "Bearer " + cred["value"]}
        if cred.get("scheme") == "apiKey" and isinstance(api_key, dict) and (api_key.get("location") or api_key.get("in")) == "header" and api_key.get("name"):
            return {api_key["name"]: cred["value"]}
    return {}


class Seen:
    """What the answers of one delegation said: the task, its context, its
    state and last status message, its results."""

    def __init__(self):
        self.task_id = ""
        self.context_id = ""
        self.state = ""
        self.message = False
        self.status_text = ""
        self.results = kit.Results()

    def see(self, result):
        if not isinstance(result, dict):
            return
        kind = result.get("kind")
        self.context_id = result.get("contextId") or self.context_id
        if kind == "task":
            self.task_id = result.get("id") or self.task_id
            self.status(result.get("status"))
            for a in result.get("artifacts") or []:
                self.results.add(a)
        elif kind == "status-update":
            self.task_id = result.get("taskId") or self.task_id
            self.status(result.get("status"))
        elif kind == "artifact-update":
            self.task_id = result.get("taskId") or self.task_id
            self.results.chunk(result.get("artifact"), bool(result.get("append")))
        elif kind == "message":
            self.message = True
            self.task_id = result.get("taskId") or self.task_id
            self.results.reply(result.get("parts"))

    def status(self, status):
        status = status if isinstance(status, dict) else {}
        self.state = status.get("state") or self.state
        if isinstance(status.get("message"), dict):
            self.status_text = kit.status_text(status["message"])


_ids = [0]


def call(net, endpoint, method, params, deadline, seen, auth=None):
    """A JSON-RPC call; streamed answers are read until the server closes."""
    _ids[0] += 1
    body = json.dumps({"jsonrpc": "2.0", "id": _ids[0], "method": method, "params": params}).encode()
    headers = {"Content-Type": "application/json", "Accept": "application/json"}
    headers.update(auth or {})
    if method == "message/stream":
        headers["Accept"] = "text/event-stream"
    conn, resp = request(net, "POST", endpoint, body, headers, deadline)
    if resp.status == 401:
        conn.close()
        raise Unauthorized("%s: HTTP 401 (WWW-Authenticate: %s)" % (endpoint, resp.getheader("WWW-Authenticate") or "none"))
    try:
        ctype = (resp.getheader("Content-Type") or "").split(";")[0].strip().lower()
        if ctype == "text/event-stream":
            for line in iter_lines(resp):
                if not line.startswith("data:"):
                    continue
                try:
                    msg = json.loads(line[5:].strip())
                except ValueError:
                    continue
                if "error" in msg and msg["error"] is not None:
                    raise RPCError(msg["error"])
                seen.see(msg.get("result"))
            return
        data = resp.read()
    except socket.timeout as e:
        raise DeadlineExceeded("%s: %s" % (method, e))
    finally:
        conn.close()
    try:
        msg = json.loads(data)
    except ValueError:
        raise RPCError({"code": None, "message": "HTTP %d, not JSON: %r" % (resp.status, data[:120])})
    if not isinstance(msg, dict):
        raise RPCError({"code": None, "message": "HTTP %d, not a JSON-RPC response" % resp.status})
    if msg.get("error") is not None:
        raise RPCError(msg["error"])
    seen.see(msg.get("result"))


def iter_lines(resp):
    buf = b""
    while True:
        chunk = resp.read1(65536) if hasattr(resp, "read1") else resp.read(1)
        if not chunk:
            break
        buf += chunk
        while b"\n" in buf:
            line, buf = buf.split(b"\n", 1)
            yield line.rstrip(b"\r").decode("utf-8", "replace")
    if buf:
        yield buf.decode("utf-8", "replace")


def delegate(req):
    task = req.get("task") or {}
    skill = task.get("skill") or ""
    out = {
        "contract": CONTRACT,
        "id": req.get("id"),
        "outcome": "failed",
        "cardTrust": "authoritative",
        "trustMode": "unpinned",
    }
    if skill:
        out["skill"] = skill
    limit = (req.get("deadlineMs") or 20000) / 1000.0
    deadline = time.monotonic() + max(limit - MARGIN, limit / 2)

    def fail(reason, detail):
        out.update(outcome="failed", reason=reason, detail=detail)
        return out

    try:
        net = Net(req)
    except (OSError, ssl.SSLError) as e:
        return fail("other", "trust.caFile or trust.clientCertificates: %s" % e)
    msg = dict(task.get("message") or {})
    msg.setdefault("role", "user")
    msg.setdefault("messageId", str(uuid.uuid4()))
    msg["kind"] = "message"
    params = {"message": msg}
    if skill:
        msg["metadata"] = dict(msg.get("metadata") or {}, skillId=skill)
        params["metadata"] = {"skillId": skill}

    credentials = (req.get("trust") or {}).get("credentials") or {}
    problems = []
    spoke_none = False  # a card named no endpoint this client speaks
    ext_refused = False  # a card required an extension the caller lacks
    for cand in req.get("candidates") or []:
        try:
            card = fetch_card(net, cand, deadline)
        except Unreachable as e:
            problems.append(str(e))
            continue
        except DeadlineExceeded as e:
            return fail("deadline", str(e))
        endpoint = endpoint_of(card)
        if not endpoint:
            # Neither a 0.3 url nor a JSONRPC interface: nothing it speaks.
            problems.append("card %s names no endpoint this client speaks (no url, no JSONRPC interface)" % cand)
            spoke_none = True
            continue
        stream = bool(task.get("preferStreaming")) and bool((card.get("capabilities") or {}).get("streaming"))
        method = "message/stream" if stream else "message/send"
        out["agent"] = endpoint
        seen = Seen()
        auth = auth_headers(card, credentials.get(origin_of(endpoint)))
        ext_name, ext_value, missing = kit.extension_header(card, req, "0.3")
        if missing:
            # The card requires an extension the caller cannot follow: the
            # agent cannot be used; the next candidate may be.
            problems.append("card %s requires extension %s, which the caller does not implement" % (cand, ", ".join(missing)))
            ext_refused = True
            out.pop("agent", None)
            continue
        extra = dict(auth, **{ext_name: ext_value}) if ext_value else auth
        try:
            call(net, endpoint, method, params, deadline, seen, extra)
            for reply in kit.replies_of(req):
                if seen.state != "input-required" or not seen.task_id:
                    break
                # The caller's next answer continues the task (A2A 1.0 §3.4.3).
                seen.message = False
                call(net, endpoint, method, continued(params, reply, seen), deadline, seen, extra)
        except Unreachable as e:
            problems.append(str(e))
            out.pop("agent", None)
            continue
        except DeadlineExceeded as e:
            note(out, seen)
            return fail("deadline", str(e))
        except Unauthorized as e:
            # 401 to the credential presented: refused; to none: one was wanted.
            note(out, seen)
            return fail("auth-rejected" if auth else "no-credential", str(e))
        except RPCError as e:
            note(out, seen)
            err = kit.remote_error(e.code, e.reason, e.message)
            if err:
                out["error"] = err
            reason = {-32601: "endpoint-not-a2a", -32009: "version-mismatch", -32008: "extension-unsupported"}.get(e.code, "other")
            return fail(reason, str(e))
        except (OSError, http.client.HTTPException) as e:
            note(out, seen)
            return fail("other", "%s: %s" % (endpoint, e))
        note(out, seen)
        if seen.state == "completed" or (seen.message and not seen.state):
            out.update(outcome="completed", reason="ok", detail="%s to %s" % (method, endpoint))
            return out
        if seen.state in ("input-required", "auth-required") and seen.task_id:
            out.update(outcome="interrupted", reason="ok", detail="remote task waits in state %r" % seen.state)
            return out
        return fail("other", "remote task ended in state %r" % seen.state)
    if time.monotonic() >= deadline:
        return fail("deadline", "; ".join(problems + ["deadline passed"]))
    if ext_refused:
        return fail("extension-unsupported", "; ".join(problems))
    if spoke_none:
        return fail("version-mismatch", "; ".join(problems))
    return fail("other", "; ".join(problems) or "no candidates")


def continued(params, reply, seen):
    """The send's params with reply as the continuation of the task seen."""
    msg = kit.continuation(reply, seen.task_id, seen.context_id)
    msg["kind"] = "message"
    if (params.get("metadata") or {}).get("skillId"):
        msg["metadata"] = dict(msg.get("metadata") or {}, skillId=params["metadata"]["skillId"])
    return dict(params, message=msg)


def note(out, seen):
    if seen.task_id:
        out["taskId"] = seen.task_id
    if seen.context_id:
        out["contextId"] = seen.context_id
    if seen.state:
        out["taskState"] = seen.state
    if seen.status_text:
        out["statusText"] = seen.status_text
    seen.results.report(out)


def main():
    for raw in sys.stdin:
        line = raw.strip()
        if not line:
            continue
        try:
            m = json.loads(line)
        except ValueError as e:
            print("skipped a line that is not JSON: %s" % e, file=sys.stderr)
            continue
        if not isinstance(m, dict):
            continue
        kind = m.get("type")
        if kind == "hello":
            answer = {"contract": CONTRACT, "type": "hello", "name": NAME, "version": VERSION}
        elif kind == "reset":
            answer = {"contract": CONTRACT, "type": "reset", "ok": True}  # nothing is cached
        elif kind == "delegate":
            try:
                answer = delegate(m)
            except Exception as e:  # report, never die mid-scenario
                answer = {"contract": CONTRACT, "id": m.get("id"), "outcome": "failed", "reason": "other",
                          "detail": "adapter error: %s: %s" % (type(e).__name__, e)}
        else:
            print("skipped a message of type %r" % kind, file=sys.stderr)
            continue
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
