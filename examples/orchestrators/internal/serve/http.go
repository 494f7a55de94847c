package serve

import (
	"encoding/json"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/a2a-conform/a2a-conform/contract"
)

// maxMessage bounds a posted message, as the harness bounds an answer.
const maxMessage = 1 << 20

// Sessions serves the driver contract over HTTP for the http driver: each
// POST is one message and the response body its answer. Every harness
// session (the session field of its messages; none is one session) gets
// an orchestrator of its own from New, so sessions share no cache and may
// run at once; its hello answer declares Identity.Sessions (a hello holds
// no session: the orchestrator made to answer it is dropped). A reset gives
// the session a new orchestrator, a close drops it, and when more than
// Identity.Sessions are held (a harness that stopped without closing its
// sessions) the least recently used one is dropped.
type Sessions struct {
	// Identity is what hello answers say; its Sessions is also the most
	// sessions held (zero: one).
	Identity Identity
	// New makes the orchestrator of a new session.
	New func() Orchestrator
	// Log, when set, gets a line for each message that gets no answer.
	Log func(format string, a ...any)

	mu   sync.Mutex
	held map[string]*held
}

type held struct {
	o    Orchestrator
	used time.Time
}

// ServeHTTP answers one message. A message that is not one is 400; a
// method other than POST, 405.
func (s *Sessions) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "POST one driver-contract message", http.StatusMethodNotAllowed)
		return
	}
	line, err := io.ReadAll(io.LimitReader(r.Body, maxMessage+1))
	if err != nil || len(line) > maxMessage {
		http.Error(w, "message unreadable or over 1 MiB", http.StatusBadRequest)
		return
	}
	var head struct {
		Type    string `json:"type"`
		Session string `json:"session"`
	}
	if err := json.Unmarshal(line, &head); err != nil {
		s.refuse(w, "not JSON: "+err.Error())
		return
	}
	var a any = struct{}{}
	switch head.Type {
	case contract.TypeClose:
		s.drop(head.Session)
	case contract.TypeReset:
		s.drop(head.Session)
		a, err = answer(r.Context(), line, s.Identity, s.session(head.Session))
	case contract.TypeHello:
		// The pre-flight hello has no session: it is answered without
		// holding one.
		a, err = answer(r.Context(), line, s.Identity, s.New())
	default:
		a, err = answer(r.Context(), line, s.Identity, s.session(head.Session))
	}
	if err != nil {
		s.refuse(w, err.Error())
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(a)
}

func (s *Sessions) refuse(w http.ResponseWriter, why string) {
	if s.Log != nil {
		s.Log("%s", why)
	}
	http.Error(w, why, http.StatusBadRequest)
}

// session returns the orchestrator of session id, made when new.
func (s *Sessions) session(id string) Orchestrator {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.held == nil {
		s.held = map[string]*held{}
	}
	h := s.held[id]
	if h == nil {
		s.evict(max(1, s.Identity.Sessions) - 1)
		h = &held{o: s.New()}
		s.held[id] = h
	}
	h.used = time.Now()
	return h.o
}

// evict drops the least recently used sessions until at most keep are held.
func (s *Sessions) evict(keep int) {
	for len(s.held) > keep {
		var oldest string
		var at time.Time
		for id, h := range s.held {
			if at.IsZero() || h.used.Before(at) {
				oldest, at = id, h.used
			}
		}
		delete(s.held, oldest)
	}
}

// drop forgets session id.
func (s *Sessions) drop(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.held, id)
}
