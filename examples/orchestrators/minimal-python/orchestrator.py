#!/usr/bin/env python3
"""The smallest a2a-conform orchestrator: stdlib Python, the driver contract
(docs/driver-contract.md) and the exec driver's environment, nothing else.
urllib goes through HTTPS_PROXY, and ssl trusts SSL_CERT_FILE: both point at
the fleet. Per delegation: each candidate's card, then message/send (0.3) to
its endpoint with the skill id, task.replies as its continuations; the first completed task wins.

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
            url, replies = endpoint(call(cand)), list(req["task"].get("replies") or [])
            out.update(agent=url, cardTrust="authoritative", trustMode="unpinned")
            meta = {"skillId": skill} if skill else {}  # where the fleet reads the skill id
            send = lambda m: call(url, {"jsonrpc": "2.0", "id": str(uuid.uuid4()), "method": "message/send", "params": {"message": dict(m, metadata=meta), "metadata": meta}})
            ans = send(req["task"]["message"])
            while replies and ans.get("result", {}).get("status", {}).get("state") == "input-required":  # it asks: continue it
                ans = send(dict(replies.pop(0), taskId=ans["result"]["id"], contextId=ans["result"].get("contextId", "")))
            if "error" in ans:
                why.append("%s: error %s" % (url, ans["error"].get("code")))
                out["error"] = {"code": ans["error"]["code"]} if isinstance(ans["error"].get("code"), int) else None; continue
            state, said = (task := ans.get("result", {})).get("status", {}).get("state", ""), task.get("status", {}).get("message") or {}
            if state in ("completed", "input-required"):  # artifacts are not summarised here
                return dict(out, outcome="completed" if state == "completed" else "interrupted", reason="ok", skill=skill, taskId=task.get("id"), taskState=state,
                            contextId=task.get("contextId", ""), error=None, statusText="".join(p.get("text", "") for p in said.get("parts", [])))
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
