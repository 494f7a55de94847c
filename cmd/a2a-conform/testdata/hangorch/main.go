// Command hangorch is a test orchestrator for the exec driver: it answers
// the first N delegation requests of a run (counted across its processes
// in a file) with a "failed" outcome, then hangs without answering, as an
// orchestrator stuck on a network call does.
//
//	hangorch -answer 3 -count /tmp/x/count
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

func main() {
	answer := flag.Int("answer", 3, "requests to answer before hanging")
	countFile := flag.String("count", "", "file holding the number of requests seen so far")
	flag.Parse()
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	for in.Scan() {
		var msg struct {
			Type string `json:"type"`
			ID   string `json:"id"`
		}
		if json.Unmarshal(in.Bytes(), &msg) != nil || msg.Type != "delegate" {
			continue
		}
		b, _ := os.ReadFile(*countFile)
		n, _ := strconv.Atoi(strings.TrimSpace(string(b)))
		_ = os.WriteFile(*countFile, []byte(strconv.Itoa(n+1)), 0o644)
		if n >= *answer {
			fmt.Fprintln(os.Stderr, "hangorch: hanging on", msg.ID)
			time.Sleep(time.Hour)
		}
		out, _ := json.Marshal(map[string]any{"contract": 1, "id": msg.ID, "outcome": "failed", "reason": "other", "detail": "hangorch answers every request with failed"})
		fmt.Println(string(out))
	}
}
