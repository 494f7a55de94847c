package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"strings"
	"sync"
)

// hostileUnit is text that costs a report the most per byte: runes of two
// and three bytes (a cut may fall inside one), what JSON, XML and HTML
// escape (a quote, a backslash, <, >, &, an apostrophe, U+2028), and
// control characters (an ANSI colour, U+0001) that JSON writes as six
// bytes and XML 1.0 cannot hold at all.
const hostileUnit = "é<&>\"'\\\x01\x1b[31m日本\u2028 "

// hostileText is n bytes of hostileUnit, cut at a rune boundary.
func hostileText(n int) string {
	s := strings.Repeat(hostileUnit, n/len(hostileUnit)+1)
	for n > 0 && n < len(s) && (s[n]&0xc0) == 0x80 {
		n--
	}
	return s[:n]
}

// headerText is n bytes of what a header value may hold that JSON, XML
// and HTML escape.
func headerText(n int) string { return strings.Repeat(`<&>"\'`, n/6+1)[:n] }

// line writes v as one NDJSON line, without HTML escaping (so that as
// much text as possible fits in the harness's 1 MiB line).
func line(v any) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	os.Stdout.Write(b.Bytes())
}

// fitted returns how many bytes of hostileText each of n fields may hold
// for the line to stay under the harness's 1 MiB.
func fitted(n int) int {
	probe, _ := json.Marshal(hostileText(100_000))
	return (1<<20 - 4096) / n * 100_000 / len(probe)
}

// hello answers a hello: in mode big-text a name of 1,000 KiB, in mode
// max a name and a version as large as the line allows.
func hello(mode string) {
	if mode == "big-text" {
		line(map[string]any{"contract": 1, "type": "hello", "name": strings.Repeat("n", 1000<<10)})
		return
	}
	n := fitted(2)
	line(map[string]any{"contract": 1, "type": "hello", "name": hostileText(n), "version": hostileText(n)})
}

// maxEverywhere answers a delegation with the most the contract lets an
// orchestrator send: 80 KiB of stderr, 250 notes' worth of lines with
// wrong ids of 2,000 bytes, five requests nested 9,990 deep and 20 with
// every traced field past its bound (5,000, and 70 bodies of 60 KiB, when
// flood is set), then an outcome whose every field is as large as the
// line allows; the second delegation of a scenario gets an outcome word
// that large instead (no outcome).
func maxEverywhere(id string, flood bool, caFile, proxy string, candidates []string) {
	os.Stderr.WriteString(hostileText(80 << 10))
	for i := 0; i < 250; i++ {
		line(map[string]any{"contract": 1, "id": hostileText(2000), "outcome": "completed"})
	}
	n, bodies := 20, 0
	if flood {
		n, bodies = 5000, 70
	}
	wildRequests(caFile, proxy, candidates, n, bodies)
	n = fitted(10)
	o := map[string]any{"contract": 1, "id": id, "outcome": "failed"}
	for _, k := range []string{"agent", "skill", "taskId", "taskState", "cardTrust", "trustMode", "reason", "detail"} {
		o[k] = hostileText(n)
	}
	if strings.Contains(id, "-2-") {
		o["outcome"] = hostileText(n)
	}
	line(o)
}

// wildRequests fetches the first candidate's card that names an endpoint
// and sends that endpoint five bodies nested 9,990 deep (Go's parser, the
// fleet's, stops at 10,000), n requests whose headers, query, JSON-RPC
// id, method, tenant, skill and task id are past the trace's 256 bytes,
// and bodies requests of 60 KiB (just under the trace's 64 KiB), 64 at a
// time.
func wildRequests(caFile, proxy string, candidates []string, n, bodies int) {
	c := client(caFile, proxy)
	var card struct{ URL string }
	for _, cand := range candidates {
		if resp, err := c.Get(cand); err == nil {
			_ = json.NewDecoder(resp.Body).Decode(&card)
			resp.Body.Close()
		}
		if card.URL != "" {
			break
		}
	}
	if card.URL == "" {
		return
	}
	deep := `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"x":` + strings.Repeat("[", 9990) + strings.Repeat("]", 9990) + `}}`
	text, _ := json.Marshal(hostileText(60 << 10))
	big := `{"jsonrpc":"2.0","id":2,"method":"SendMessage","params":{"message":{"role":"ROLE_USER","messageId":"m","parts":[{"text":` + string(text) + `}]}}}`
	var wg sync.WaitGroup
	sem := make(chan struct{}, 64)
	for i := 0; i < 5+n+bodies; i++ {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			body, junk := wild(i), i%4 != 1 && i%4 != 2
			switch {
			case i < 5:
				body, junk = deep, false
			case i >= 5+n:
				body, junk = big, false
			}
			url, version, other := card.URL, "1.0", "no-cache"
			if junk {
				// Headers and a query past the trace's bounds (the fleet
				// then refuses the version before reading the body).
				url, version, other = url+"?A2A-Version="+headerText(300), headerText(1000), headerText(1000)
			}
			req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("A2A-Version", version)
			for _, h := range []string{"Cache-Control", "Pragma", "If-None-Match"} {
				req.Header.Set(h, other)
			}
			if resp, err := c.Do(req); err == nil {
				resp.Body.Close()
			}
		}()
	}
	wg.Wait()
}

// wild is a JSON-RPC request whose id, method, tenant, skill and task id
// are past the trace's bounds: an unknown method (its error data quotes
// it) every other time, a send otherwise. Requests 1 and 2 of every four
// go with honest headers, the others with headers past the bounds too.
func wild(i int) string {
	method := "SendMessage"
	if i%2 == 0 {
		method = hostileText(600)
	}
	b, _ := json.Marshal(map[string]any{
		"jsonrpc": "2.0", "id": hostileText(200), "method": method,
		"params": map[string]any{"tenant": hostileText(1000), "message": map[string]any{
			"role": "ROLE_USER", "messageId": hostileText(1000), "taskId": hostileText(1000),
			"parts": []any{map[string]any{"text": "x"}}, "metadata": map[string]any{"skillId": hostileText(1000)},
		}},
	})
	return string(b)
}
