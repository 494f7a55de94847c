package reference

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestPushCloseAnswersTheDeliveryActedOn: the receiver is closed as soon
// as the follow loop has taken the delivery that ends the task (the
// delegation is over); the sender still gets its 200. Closed abruptly, the
// connection was cut before the answer about one time in several under
// load: the fleet saw the completion it had just delivered as failed and
// retried it, and the run's wire no longer showed how the outcome knew.
func TestPushCloseAnswersTheDeliveryActedOn(t *testing.T) {
	const rounds = 200
	failed := 0
	for i := 0; i < rounds; i++ {
		r := &run{}
		h := r.startPush()
		if h == nil {
			t.Fatal("the receiver cannot listen")
		}
		h.follow("t-1")
		got := make(chan error, 1)
		go func() {
			req, _ := http.NewRequest(http.MethodPost, h.url, strings.NewReader(`{"statusUpdate":{"taskId":"t-1","status":{"state":"TASK_STATE_COMPLETED"}}}`))
			req.Header.Set("Authorization", "Bearer "+h.secret)
			req.Header.Set("Content-Type", "application/json")
			resp, err := (&http.Client{Timeout: 5 * time.Second}).Do(req)
			if err == nil {
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					err = &statusError{resp.StatusCode}
				}
			}
			got <- err
		}()
		select {
		case <-h.events: // the follow loop acts on it, and the delegation ends
		case <-time.After(5 * time.Second):
			t.Fatal("the delivery never reached the follow loop")
		}
		h.close()
		if err := <-got; err != nil {
			failed++
			if failed == 1 {
				t.Logf("round %d: the sender got %v", i, err)
			}
		}
	}
	if failed > 0 {
		t.Errorf("%d of %d deliveries the receiver acted on were not answered 200 before it closed", failed, rounds)
	}
}

type statusError struct{ code int }

func (e *statusError) Error() string { return http.StatusText(e.code) }
