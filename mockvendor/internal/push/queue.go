package push

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"time"
)

// The queue of a vendor's webhook deliveries. Each notification (one
// state of one task, for one config) is a job queued at its receiver: the
// host and port of the config's URL as written (localhost:8080 and
// 127.0.0.1:8080 are two receivers). A receiver has at most
// MaxInFlightPerReceiver jobs in flight and the vendor at most
// MaxInFlight; a job that finds no free slot waits in its receiver's
// queue, and when a slot frees, the receiver that started a job least
// recently goes first. So a receiver that never answers holds its own two
// slots for as long as its attempts last (3 x 10 s) while the other
// receivers' notifications go out at once; it takes four receivers that
// all hang to hold a vendor's eight slots, and the others' notifications
// then wait in their queues rather than being dropped.
//
// A config's notifications go out in order: a job does not start while an
// earlier one of the same config (task, config id and URL) is in flight,
// and each queue is first in, first out.
//
// Waiting jobs are bounded: MaxQueuedPerReceiver per receiver and
// MaxQueued per vendor. Past either, the oldest waiting job of the
// receiver (for the vendor's bound: of the receiver with the most waiting)
// is dropped for the new one: a notification carries the whole task, so
// the newer one says more. A job dropped, and each one still waiting when
// the fleet closes, is a trace event with attempt 0 and the reason.

// job is one notification: task taskID in state (as computed at at)
// to config c at URL u. It names the task rather than holding it, so a
// task the task store forgets is not kept alive by a waiting job: its
// notification is then not sent (deliver).
type job struct {
	taskID string
	state  string
	at     time.Time
	c      Config
	u      *url.URL
}

// receiver is the key of the job's receiver: its URL's host and port.
func (j *job) receiver() string { return j.u.Host }

// order is the key of the job's sequence: its notifications go out one at
// a time, in order.
func (j *job) order() string { return j.taskID + "\x00" + j.c.ID + "\x00" + j.c.URL }

// receiver is one receiver's share: its waiting jobs, oldest first,
// and how many are in flight.
type receiver struct {
	waiting  []*job
	inFlight int
	// started is the vendor's count of started jobs when this receiver
	// last started one (0: never): the smallest goes first.
	started uint64
}

// jobQueue is the delivery queue of a vendor (guarded by Store.mu).
type jobQueue struct {
	receivers map[string]*receiver
	busy      map[string]bool // order keys with a job in flight
	inFlight  int             // jobs in flight, all receivers
	queued    int             // jobs waiting, all receivers
	started   uint64          // jobs started so far
}

// drop is a job that will not be delivered, and why.
type drop struct {
	j      *job
	reason string
}

// queueLocked adds j to its receiver's queue, dropping the oldest waiting
// job past a bound; s.mu is held. The jobs dropped are appended to drops,
// their reason naming the bound as the fleet's public face does
// (mockvendor.MaxPushQueuedPerReceiver, mockvendor.MaxPushQueued).
func (s *Store) queueLocked(j *job, drops []drop) []drop {
	q := &s.queue
	if q.receivers == nil {
		q.receivers, q.busy = map[string]*receiver{}, map[string]bool{}
	}
	key := j.receiver()
	r := q.receivers[key]
	if r == nil {
		r = &receiver{}
		q.receivers[key] = r
	}
	if len(r.waiting) >= MaxQueuedPerReceiver {
		drops = append(drops, drop{q.dropOldest(r), fmt.Sprintf(
			"dropped for a newer notification: %d were waiting for receiver %s (MaxPushQueuedPerReceiver)", MaxQueuedPerReceiver, key)})
	}
	if q.queued >= MaxQueued {
		longest, lk := q.longest()
		drops = append(drops, drop{q.dropOldest(longest), fmt.Sprintf(
			"dropped for a newer notification: the vendor had %d waiting (MaxPushQueued), receiver %s the most", MaxQueued, lk)})
	}
	r.waiting = append(r.waiting, j)
	q.queued++
	return drops
}

// dropOldest removes r's oldest waiting job and returns it.
func (q *jobQueue) dropOldest(r *receiver) *job {
	j := r.waiting[0]
	r.waiting = slices.Delete(r.waiting, 0, 1)
	q.queued--
	return j
}

// longest is the receiver with the most jobs waiting, and its key.
func (q *jobQueue) longest() (*receiver, string) {
	var best *receiver
	var key string
	for k, r := range q.receivers {
		if best == nil || len(r.waiting) > len(best.waiting) {
			best, key = r, k
		}
	}
	return best, key
}

// next picks the job to start: from the receivers with a free slot, the
// one that started a job least recently, and its oldest job whose config
// has none in flight. Nil when no job can start.
func (q *jobQueue) next() (*receiver, int) {
	var best *receiver
	at := -1
	for _, r := range q.receivers {
		if r.inFlight >= MaxInFlightPerReceiver || best != nil && r.started >= best.started {
			continue
		}
		if i := slices.IndexFunc(r.waiting, func(j *job) bool { return !q.busy[j.order()] }); i >= 0 {
			best, at = r, i
		}
	}
	return best, at
}

// dispatchLocked starts waiting jobs while the vendor has free slots;
// s.mu is held. Each runs in its own goroutine, counted in the fleet's
// active handlers (Close waits for them).
func (s *Store) dispatchLocked(v Vendor) {
	q := &s.queue
	for q.inFlight < MaxInFlight && !s.stopped {
		r, i := q.next()
		if r == nil || !v.Enter() {
			return
		}
		j := r.waiting[i]
		r.waiting = slices.Delete(r.waiting, i, i+1)
		q.queued--
		q.inFlight++
		r.inFlight++
		q.started++
		r.started = q.started
		q.busy[j.order()] = true
		go s.run(s.ctx, v, j)
	}
}

// run delivers j, frees its slot and starts what can start next.
func (s *Store) run(ctx context.Context, v Vendor, j *job) {
	defer v.Leave()
	s.deliver(ctx, v, j)
	s.mu.Lock()
	defer s.mu.Unlock()
	q := &s.queue
	q.inFlight--
	delete(q.busy, j.order())
	if r := q.receivers[j.receiver()]; r != nil {
		r.inFlight--
		if r.inFlight == 0 && len(r.waiting) == 0 {
			delete(q.receivers, j.receiver())
		}
	}
	s.dispatchLocked(v)
}

// drainLocked empties the queue (the fleet is closing) and returns the
// jobs that were waiting; s.mu is held.
func (s *Store) drainLocked() []drop {
	q := &s.queue
	var drops []drop
	for k, r := range q.receivers {
		for _, j := range r.waiting {
			drops = append(drops, drop{j, "the fleet closed before it was sent"})
		}
		r.waiting = nil
		if r.inFlight == 0 {
			delete(q.receivers, k)
		}
	}
	q.queued = 0
	return drops
}

// traceDrops records each job not delivered as an event with attempt 0.
func (s *Store) traceDrops(v Vendor, drops []drop) {
	for _, d := range drops {
		ev := event(v.ID(), d.j.taskID, d.j.state, d.j.c)
		if d.j.u != nil { // nil: the URL does not parse
			ev.Host = d.j.u.Host
		}
		ev.DeliveryError = "not delivered: " + d.reason
		v.Add(ev)
	}
}
