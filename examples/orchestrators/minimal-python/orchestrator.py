#!/usr/bin/env python3
"""The smallest a2a-conform orchestrator: stdlib Python, the driver contract
(docs/driver-contract.md) and the exec driver's environment, nothing else.
urllib goes through HTTPS_PROXY, and ssl trusts SSL_CERT_FILE: both point at
the fleet. Per delegation: each candidate's card, then message/send (0.3) to
its endpoint with the skill id; the first completed task wins.

    a2a-conform run --orchestrator 'exec:python3 examples/orchestrators/minimal-python/orchestrator.py'
"""
import json, sys, urllib.request, uuid


def call(url, body=None, timeout=10):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, data, {"Content-Type": "application/json"} if data else {})
    with urllib.request.urlopen(req, timeout=timeout) as res:
        return json.load(res)


def endpoint(card):  # 1.0 cards list interfaces; 0.3 cards have url
    for i in card.get("supportedInterfaces") or []:
        if i.get("protocolBinding") == "JSONRPC" and i.get("protocolVersion", "").startswith("0.3"):
            return i["url"]
    return card.get("url")


def delegate(req):
    out, skill, why = {"outcome": "failed", "reason": "other"}, req["task"].get("skill", ""), []
    for cand in req["candidates"]:
        try:
            url = endpoint(call(cand))
            out.update(agent=url, cardTrust="authoritative", trustMode="unpinned")
            meta = {"skillId": skill} if skill else {}  # where the fleet reads the skill id
            params = {"message": dict(req["task"]["message"], metadata=meta), "metadata": meta}
            ans = call(url, {"jsonrpc": "2.0", "id": str(uuid.uuid4()), "method": "message/send", "params": params})
            if "error" in ans:
                why.append("%s: error %s" % (url, ans["error"].get("code")))
                continue
            task = ans.get("result", {})
            state = task.get("status", {}).get("state", "")
            if state == "completed":
                return dict(out, outcome="completed", reason="ok", skill=skill, taskId=task.get("id"), taskState=state)
            why.append("%s: task %s" % (url, state))
        except Exception as e:  # unreachable, TLS, not JSON: the next candidate
            why.append("%s: %s" % (cand, e))
    return dict(out, detail="; ".join(why))


for line in sys.stdin:
    msg = json.loads(line) if line.strip() else {}
    kind = msg.get("type")
    if kind == "hello":
        print(json.dumps({"contract": 1, "type": "hello", "name": "minimal-python", "version": "1"}), flush=True)
    elif kind == "reset":  # nothing is cached, so nothing to drop
        print(json.dumps({"contract": 1, "type": "reset", "ok": True}), flush=True)
    elif kind == "delegate":
        print(json.dumps(dict(delegate(msg), contract=1, id=msg["id"])), flush=True)
