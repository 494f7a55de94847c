package push

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/tasks"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
)

// Bounds of the config store: configs per task, and tasks with configs per
// vendor (the oldest task's configs are forgotten first).
const (
	MaxPerTask = 16
	MaxTasks   = 1024
)

// Config is one stored push-notification config, dialect-neutral.
type Config struct {
	ID, URL, Token string
	// Auth is the config's authentication object as the client sent it.
	Auth json.RawMessage
	// Dialect is the dialect of the request that set the config: its
	// notifications are shaped the same way (deliver.go).
	Dialect a2a.Dialect
}

// Webhook is c as the trace records its registration: the URL, the
// scheme, whether it has a token, and a fingerprint of its credentials
// (the first 16 hex digits of the SHA-256 of the token and the
// authentication's credentials; "" when it has neither).
func (c Config) Webhook() *trace.Webhook {
	a, _ := c.authentication()
	w := &trace.Webhook{URL: c.URL, Scheme: a.scheme, Token: c.Token != ""}
	if c.Token != "" || a.Credentials != "" {
		sum := sha256.Sum256([]byte(c.Token + "\x00" + a.Credentials))
		w.Credential = hex.EncodeToString(sum[:8])
	}
	return w
}

// Store holds a vendor's push configs by task id and delivers their
// notifications. The zero value is an empty store, ready to use.
type Store struct {
	mu     sync.Mutex
	byTask map[string][]Config
	order  []string // task ids, oldest first
	delivery
}

// Vendor is the vendor a Store delivers for, as delivery sees it: the
// root package adapts its vendor to it, and delivery never sees the fleet.
type Vendor interface {
	// ID is the vendor's id, the Vendor of every delivery event.
	ID() string
	// Task returns the vendor's task id as the task store holds it now,
	// nil once the store forgot it.
	Task(id string) *tasks.Task
	// WorkTime is how long the fleet's tasks work: the clock of
	// tasks.Task.State.
	WorkTime() time.Duration
	// EncodeTask is t in state at now as dialect d's Task object, what a
	// notification carries.
	EncodeTask(t *tasks.Task, d a2a.Dialect, state string, now time.Time) any
	// Events are the events of t's stream in dialect d, as a stream
	// sends them (the task, its working status, its artifact updates,
	// its final status): the push-trials' deliveries of a 1.0 config.
	Events(t *tasks.Task, d a2a.Dialect) []any
	// Results is what an answer showing t in state in dialect d delivers
	// of its results, for the trace (nil: nothing).
	Results(t *tasks.Task, d a2a.Dialect, state string) *trace.Results
	// Enter registers a goroutine of delivery unless the fleet is closing
	// (false then); Leave ends one. The fleet's close waits for them.
	Enter() bool
	Leave()
	Recorder
}

// Recorder keeps delivery events in the fleet's trace, with the
// credentials the fleet issued cut out of them (a config's URL may carry
// one).
type Recorder interface {
	// Add records a finished event: a notification not sent.
	Add(e trace.Event)
	// Begin records an attempt as it starts and returns its sequence
	// number; Finish completes it with the receiver's HTTP status (0: no
	// answer) and why it failed ("" for a 2xx answer).
	Begin(e trace.Event) int64
	Finish(seq int64, status int, deliveryError string)
}

// Set stores c for task id, replacing a config with the same id. A task
// with MaxPerTask configs takes no other (the error says so, for a -32602
// answer); past MaxTasks tasks the oldest task's configs are forgotten and
// it is no longer followed.
func (s *Store) Set(task string, c Config) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.byTask == nil {
		s.byTask = map[string][]Config{}
	}
	cs, known := s.byTask[task]
	if i := slices.IndexFunc(cs, func(x Config) bool { return x.ID == c.ID }); i >= 0 {
		cs[i] = c
		return nil
	}
	if len(cs) >= MaxPerTask {
		return fmt.Errorf("task %s already has %d push notification configs, the most this agent keeps", task, MaxPerTask)
	}
	if !known {
		if len(s.order) >= MaxTasks {
			s.unwatchLocked(s.order[0])
			delete(s.byTask, s.order[0])
			s.order = s.order[1:]
		}
		s.order = append(s.order, task)
	}
	s.byTask[task] = append(cs, c)
	return nil
}

// List returns task id's configs, oldest first.
func (s *Store) List(task string) []Config {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.byTask[task])
}

// Remove deletes task id's config id (nothing when there is none: delete
// is idempotent). A task without configs gains no entry: the store's
// first delete must not write to its nil map, and an entry Set did not
// make would keep the task out of the order MaxTasks evicts by.
func (s *Store) Remove(task, id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if cs, ok := s.byTask[task]; ok {
		s.byTask[task] = slices.DeleteFunc(cs, func(x Config) bool { return x.ID == id })
	}
}

// forgetLocked drops task id's configs and its watch (the task store
// forgot the task); s.mu is held.
func (s *Store) forgetLocked(id string) {
	s.unwatchLocked(id)
	delete(s.byTask, id)
	s.order = slices.DeleteFunc(s.order, func(x string) bool { return x == id })
}
