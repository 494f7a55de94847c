"""Tests of the Python kit's results helpers: the artifact vectors every
kit shares (contract/testdata/artifact-vectors.json, the Go contract
package's own), RFC 8785 numbers and key order, chunk joining and
continuations. Standard library only:

    python3 -m unittest discover -s examples/adapters/internal-python
"""

import json
import os
import unittest

import a2a_conform_contract as kit

VECTORS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "contract", "testdata", "artifact-vectors.json")


class BaseOf(unittest.TestCase):
    def test_keeps_the_path(self):
        self.assertEqual(kit.base_of("https://agent-d.example/.well-known/agent-card.json"), "https://agent-d.example")
        self.assertEqual(kit.base_of("https://hub.agent-d.example/agents/d/.well-known/agent-card.json"), "https://hub.agent-d.example/agents/d")
        self.assertEqual(kit.base_of("https://hub.agent-d.example/agents/d/card"), "https://hub.agent-d.example/agents/d/card")


class ArtifactVectors(unittest.TestCase):
    def test_vectors(self):
        with open(VECTORS, encoding="utf-8") as f:
            vectors = json.load(f)
        self.assertTrue(vectors)
        for v in vectors:
            with self.subTest(v["name"]):
                self.assertEqual(kit.summarize_artifact(v["artifact"]), v["want"])


class CanonicalJSON(unittest.TestCase):
    def test_forms(self):
        for value, want in [
            (1.0, "1"), (0.001, "0.001"), (1e-7, "1e-7"), (1e21, "1e+21"), (1e20, "100000000000000000000"),
            (-0.0, "0"), (2**53 + 1, "9007199254740992"), (0.1 + 0.2, "0.30000000000000004"), (-1.5e-10, "-1.5e-10"),
            (5e-324, "5e-324"), ({"\U0001F4C4": 1, "\uff61": 2, "a": [None, True]}, '{"a":[null,true],"\U0001F4C4":1,"\uff61":2}'),
            ("\u2028<&>\x01\"\\\n", '"\u2028<&>\\u0001\\"\\\\\\n"'),
        ]:
            with self.subTest(value=value):
                self.assertEqual(kit.canonical_json(value), want)

    def test_refuses(self):
        for value in [float("nan"), float("inf"), 10**400, object()]:
            with self.subTest(value=value), self.assertRaises(kit.PartError):
                kit.canonical_json(value)


class Parts(unittest.TestCase):
    def test_refused(self):
        for part in [{}, {"kind": "file", "file": {"bytes": "!!"}}, {"raw": "%%%"}, [1], {"data": None}]:
            with self.subTest(part=part), self.assertRaises(kit.PartError):
                kit.digest_part(part)

    def test_unpadded_base64(self):
        self.assertEqual(kit.digest_part({"raw": "aGVsbG8"})[0], kit.digest_part({"raw": "aGVsbG8="})[0])


class Results(unittest.TestCase):
    def test_chunks_join_in_first_announced_order(self):
        r = kit.Results()
        r.chunk({"artifactId": "b", "name": "second", "parts": [{"kind": "text", "text": "x"}]})
        r.chunk({"artifactId": "a", "parts": [{"text": "INV-1042 "}]})
        r.chunk({"artifactId": "a", "parts": [{"text": "reconciled"}]}, append=True)
        r.chunk({"artifactId": "b", "parts": [{"text": "y"}]})  # not an append: replaces
        got = r.summaries()
        self.assertEqual([a["artifactId"] for a in got], ["b", "a"])
        self.assertEqual(got[0]["text"], "y")
        self.assertEqual(got[0]["name"], "second")
        self.assertEqual(got[1]["text"], "INV-1042 reconciled")
        self.assertEqual(len(got[1]["parts"]), 2)

    def test_message_reply(self):
        r = kit.Results()
        r.reply([{"kind": "text", "text": "done"}])
        self.assertEqual(r.summaries(), [{"artifactId": "", "parts": [kit.digest_part({"text": "done"})[0]], "text": "done"}])

    def test_report_says_what_it_could_not_summarise(self):
        r = kit.Results()
        r.add({"artifactId": "a", "parts": [{}]})
        out = r.report({"detail": "ok"})
        self.assertNotIn("artifacts", out)
        self.assertIn("artifacts not summarised", out["detail"])


class Conversation(unittest.TestCase):
    def test_continuation(self):
        reply = {"kind": "message", "role": "user", "messageId": "m-2", "parts": [{"kind": "text", "text": "EUR"}]}
        got = kit.continuation(reply, "t-1", "ctx-1")
        self.assertEqual((got["taskId"], got["contextId"], got["messageId"]), ("t-1", "ctx-1", "m-2"))
        self.assertNotIn("taskId", reply)
        self.assertTrue(kit.continuation({"parts": []}, "t-1", "")["messageId"])

    def test_push_helpers(self):
        self.assertTrue(kit.wants_push({"task": {"push": True}}))
        self.assertFalse(kit.wants_push({"task": {}}))
        a, b = kit.push_credential(), kit.push_credential()
        self.assertNotEqual(a, b)
        self.assertGreaterEqual(len(a), 43)
        self.assertTrue(kit.push_authentic({"Authorization": "Bearer " + a}, a))
        self.assertTrue(kit.push_authentic({"authorization": "bearer " + a}, a))
        self.assertFalse(kit.push_authentic({"Authorization": "Bearer " + b}, a))
        self.assertFalse(kit.push_authentic({"X-A2A-Notification-Token": a}, a))
        self.assertFalse(kit.push_authentic({}, a))
        self.assertFalse(kit.push_authentic({"Authorization": "Bearer "}, ""))
        self.assertEqual(kit.push_task_id({"statusUpdate": {"taskId": "t-1"}}), "t-1")
        self.assertEqual(kit.push_task_id({"artifactUpdate": {"taskId": "t-2"}}), "t-2")
        self.assertEqual(kit.push_task_id({"task": {"id": "t-3"}}), "t-3")
        self.assertEqual(kit.push_task_id({"kind": "task", "id": "t-4"}), "t-4")
        self.assertEqual(kit.push_task_id({}), "")

    def test_replies_and_status_text(self):
        req = {"task": {"replies": [{"parts": []}, "not a message"]}}
        self.assertEqual(kit.replies_of(req), [{"parts": []}])
        self.assertEqual(kit.replies_of({}), [])
        self.assertEqual(kit.status_text({"parts": [{"text": "Which "}, {"data": {}}, {"text": "currency?"}]}), "Which currency?")

    def test_remote_error(self):
        self.assertIsNone(kit.remote_error(None, "", "boom"))
        self.assertEqual(kit.remote_error(-32001, "", "gone"), {"code": -32001, "message": "gone"})
        self.assertEqual(kit.remote_error(0, "TASK_NOT_FOUND"), {"reason": "TASK_NOT_FOUND"})

    def test_error_reason(self):
        info = {"@type": kit.ERROR_INFO, "reason": "TASK_NOT_FOUND", "domain": "a2a-protocol.org"}
        self.assertEqual(kit.error_reason([{"@type": "other"}, info]), "TASK_NOT_FOUND")
        self.assertEqual(kit.error_reason(info), "TASK_NOT_FOUND")
        self.assertEqual(kit.error_reason("text"), "")


class HelloAnswer(unittest.TestCase):
    def test_declares_what_is_given(self):
        got = kit.hello_answer("x", "1", bindings=["JSONRPC", "GRPC"], protocol_versions=["1.0"])
        self.assertEqual(got["bindings"], ["JSONRPC", "GRPC"])
        self.assertEqual(got["protocolVersions"], ["1.0"])
        self.assertEqual((got["type"], got["name"], got["version"]), ("hello", "x", "1"))

    def test_omits_what_is_not(self):
        got = kit.hello_answer("x", "1")
        self.assertNotIn("bindings", got)
        self.assertNotIn("protocolVersions", got)


class Extensions(unittest.TestCase):
    CARD = {"capabilities": {"extensions": [
        {"uri": "https://x.example/req/v1", "required": True},
        {"uri": "https://x.example/opt/v1"},
    ]}}

    def test_activate_and_refuse(self):
        self.assertEqual(kit.extensions_of({"task": {"extensions": ["a", 3, ""]}}), ["a"])
        self.assertEqual(kit.extensions_of({}), [])
        self.assertEqual(kit.required_extensions(self.CARD), ["https://x.example/req/v1"])
        both = {"task": {"extensions": ["https://x.example/opt/v1", "https://x.example/req/v1", "urn:other"]}}
        self.assertEqual(kit.extension_header(self.CARD, both, "1.0"), ("A2A-Extensions", "https://x.example/req/v1,https://x.example/opt/v1", []))
        self.assertEqual(kit.extension_header(self.CARD, both, "0.3")[0], "X-A2A-Extensions")
        self.assertEqual(kit.extension_header(self.CARD, {"task": {"extensions": ["https://x.example/opt/v1"]}})[2], ["https://x.example/req/v1"])
        self.assertEqual(kit.extension_header({}, both), ("A2A-Extensions", "", []))

    def test_reason(self):
        class E(Exception):
            code = -32008
        self.assertEqual(kit.reason_for(E("Extension support required")), "extension-unsupported")

    def test_card_reason(self):
        missing = 'Failed to validate agent card structure from https://a.example/card: [{"type":"missing","loc":["%s"],"msg":"Field required"}%s]'
        for text, want in [
            (missing % ("name", ',{"type":"missing","loc":["url"]}'), "invalid-card"),
            (missing % ("url", ""), "version-mismatch"),  # a 1.0-only card read as 0.3
            ("Invalid agent card: no skills", "invalid-card"),
            ("no compatible transports found.", "version-mismatch"),
            ("Agent card must have a valid URL for RPC communication", "other"),
        ]:
            with self.subTest(text=text):
                self.assertEqual(kit.reason_for(ValueError(text)), want)
        self.assertIsNone(kit.card_reason("card request failed"))


class Bindings(unittest.TestCase):
    def test_option(self):
        self.assertIsNone(kit.bindings_option(["adapter.py"]))
        self.assertEqual(kit.bindings_option([], ["JSONRPC"]), ["JSONRPC"])
        self.assertEqual(kit.bindings_option(["--bindings", "GRPC,JSONRPC"]), ["GRPC", "JSONRPC"])
        self.assertEqual(kit.bindings_option(["--bindings=JSONRPC, HTTP+JSON,GRPC,GRPC"]), ["JSONRPC", "HTTP+JSON", "GRPC"])
        for bad in (["--bindings", "grpc"], ["--bindings", "REST"], ["--bindings="]):
            with self.assertRaises(ValueError):
                kit.bindings_option(bad)

    def test_grpc_target(self):
        for url, target, origin in (
            ("rpc.agent-d.example:443", "rpc.agent-d.example:443", "https://rpc.agent-d.example"),
            ("https://rpc.agent-d.example", "rpc.agent-d.example:443", "https://rpc.agent-d.example"),
            ("https://rpc.agent-d.example:8443/", "rpc.agent-d.example:8443", "https://rpc.agent-d.example:8443"),
            ("rpc.agent-d.example", "rpc.agent-d.example:443", "https://rpc.agent-d.example"),
            ("[::1]:9443", "[::1]:9443", "https://[::1]:9443"),
        ):
            self.assertEqual(kit.grpc_target(url), (target, origin), url)
        with self.assertRaises(ValueError):
            kit.grpc_target("")


class ClientCertificates(unittest.TestCase):
    REQ = {"trust": {"clientCertificates": {"https://rpc.agent-d.example": {"certFile": "/f/c.pem", "keyFile": "/f/k.pem"}}}}

    def test_only_its_origin(self):
        self.assertEqual(kit.client_cert_for(self.REQ, "https://rpc.agent-d.example/a2a/v1"), ("/f/c.pem", "/f/k.pem"))
        self.assertIsNone(kit.client_cert_for(self.REQ, "https://agent-d.example/.well-known/agent-card.json"))
        self.assertIsNone(kit.client_cert_for(self.REQ, "https://agent-c.example/a2a/v1"))
        self.assertIsNone(kit.client_cert_for({}, "https://rpc.agent-d.example/a2a/v1"))

    def test_declares(self):
        self.assertTrue(kit.declares_mtls({"securitySchemes": {"m": {"mtlsSecurityScheme": {}}}}))
        self.assertTrue(kit.declares_mtls({"securitySchemes": {"m": {"type": "mutualTLS"}}}))
        self.assertFalse(kit.declares_mtls({"securitySchemes": {"b": {"httpAuthSecurityScheme": {"scheme": "Bearer"}}}}))
        self.assertFalse(kit.declares_mtls({}))

    def test_client_cert_mounts(self):
        class Ctx:
            def load_cert_chain(self, certfile, keyfile):
                self.chain = (certfile, keyfile)

        req = {"trust": {"clientCertificates": {
            "https://rpc.agent-d.example": {"certFile": "/f/c.pem", "keyFile": "/f/k.pem"},
            "https://agent.vendor-a.example": {"certFile": "/f/a.pem"},
        }}}
        mounts = kit.client_cert_mounts(req, lambda ctx: ("transport", ctx), Ctx)
        self.assertEqual(list(mounts), ["https://rpc.agent-d.example"])
        self.assertEqual(mounts["https://rpc.agent-d.example"][1].chain, ("/f/c.pem", "/f/k.pem"))
        self.assertEqual(kit.client_cert_mounts({}, lambda ctx: ctx, Ctx), {})

class OAuth2(unittest.TestCase):
    def test_client_credentials(self):
        import base64

        client = {"tokenUrl": "https://auth.agent-d.example/oauth2/token", "clientId": "a2ac-d", "clientSecret": "s3 cr:et"}
        req = {"trust": {"oauth2": {"https://rpc.agent-d.example": client}}}
        card10 = {"securitySchemes": {"o": {"oauth2SecurityScheme": {"flows": {"clientCredentials": {"tokenUrl": client["tokenUrl"], "scopes": {}}}}}}}
        card03 = {"securitySchemes": {"o": {"type": "oauth2", "flows": {"clientCredentials": {"tokenUrl": client["tokenUrl"]}}}}}
        elsewhere = {"securitySchemes": {"o": {"oauth2SecurityScheme": {"flows": {"clientCredentials": {"tokenUrl": "https://evil.example/token"}}}}}}
        self.assertIs(kit.oauth_client_for(req, "https://rpc.agent-d.example/a2a/v1", card10), client)
        self.assertIs(kit.oauth_client_for(req, "https://rpc.agent-d.example/a2a/v1", card03), client)
        self.assertIsNone(kit.oauth_client_for(req, "https://rpc.agent-d.example/a2a/v1", elsewhere))
        self.assertIsNone(kit.oauth_client_for(req, "https://rpc.agent-e.example/a2a/v1", card10))
        url, headers, body = kit.token_request(client)
        self.assertEqual(url, client["tokenUrl"])
        self.assertEqual(body, "grant_type=client_credentials")
        self.assertEqual(base64.b64decode(headers["Authorization"][6:]).decode(), "a2ac-d:s3+cr%3Aet")
        self.assertTrue(kit.invalid_token('Bearer realm="D", error="invalid_token"'))
        self.assertFalse(kit.invalid_token('Bearer realm="D"'))


if __name__ == "__main__":
    unittest.main()
