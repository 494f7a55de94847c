package scenarios

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/contract"
	"github.com/a2a-conform/a2a-conform/mockvendor"
)

// pushRun is a synthetic PUSH-001 run: for each task, its send, its
// webhook registration (credential cred; "" for none), the trial
// deliveries answered with the statuses given by kind (a kind missing
// from answers is answered 200; a status of -1 means the delivery never
// came), and the orchestrator's outcomes, one delegation per task.
type pushRun struct {
	tasks    []string
	creds    []string
	answers  map[string]int
	outcomes []*contract.DelegationOutcome
	noHook   bool
}

func (p pushRun) run() *Run {
	r := &Run{}
	seq := int64(0)
	add := func(e mockvendor.Event) {
		seq++
		e.Seq = seq
		r.Events = append(r.Events, e)
	}
	for i, id := range p.tasks {
		first := seq + 1
		add(mockvendor.Event{Op: mockvendor.OpSend, Vendor: "d", Host: "rpc.agent-d.example", Path: "/a2a/v1", TaskID: id, Skill: "s", State: "working"})
		if !p.noHook {
			add(mockvendor.Event{Op: mockvendor.OpPushConfig, Vendor: "d", Host: "rpc.agent-d.example", Path: "/a2a/v1", TaskID: id,
				Webhook: &mockvendor.Webhook{URL: "http://127.0.0.1:9/hook", Scheme: "Bearer", Credential: p.creds[i]}})
			for k, kind := range []string{mockvendor.DeliveryUnknownTask, mockvendor.DeliveryForged, mockvendor.DeliveryGenuine, mockvendor.DeliveryDuplicate, mockvendor.DeliveryUnsigned, mockvendor.DeliveryGenuine} {
				status, ok := p.answers[kind]
				if !ok {
					status = 200
				}
				if status < 0 {
					continue
				}
				e := mockvendor.Event{Op: mockvendor.OpPushDelivery, Vendor: "d", Host: "127.0.0.1:9", TaskID: id, URL: "http://127.0.0.1:9/hook", Attempt: 1, Status: status, Delivery: kind,
					Note: "push notification config c1"}
				if kind == mockvendor.DeliveryUnknownTask {
					e.Note += ": task t-other, not the client's, claimed failed"
				}
				if k == 5 { // the final status
					e.State = "completed"
					e.Results = &mockvendor.Results{Artifacts: []json.RawMessage{json.RawMessage(`{"artifactId":"a-` + id + `-0","name":"report","parts":[{"text":"` + pushChunk1 + `"},{"text":"` + pushChunk2 + `"}]}`)}}
				}
				if !isOK(status) && status > 0 {
					e.DeliveryError = "the receiver answered not 2xx"
				}
				add(e)
			}
		}
		var o *contract.DelegationOutcome
		if i < len(p.outcomes) {
			o = p.outcomes[i]
		}
		if o != nil {
			o.Agent, o.Skill = resAgent, "s"
			if o.TaskID == "" {
				o.TaskID = id
			}
		}
		r.Delegations = append(r.Delegations, Delegation{Outcome: o, FirstSeq: first, LastSeq: seq})
	}
	return r
}

// pushDone is a completed outcome with artifacts of text (none for "").
func pushDone(t *testing.T, text string) *contract.DelegationOutcome {
	o := &contract.DelegationOutcome{Outcome: contract.OutcomeCompleted, TaskState: "completed"}
	if text != "" {
		raw, _ := json.Marshal(map[string]any{"artifactId": "a-x-0", "name": "report", "parts": []any{map[string]any{"text": text}}})
		o.Artifacts = resSum(t, string(raw))
	}
	return o
}

// TestPushChecks: each PUSH-001 check over synthetic runs: passing,
// failing and not reached (the delivery never answered), and
// NOT_APPLICABLE for an orchestrator that registered no webhook (no
// credit for a receiver never seen).
func TestPushChecks(t *testing.T) {
	whole := pushChunk1 + pushChunk2
	good := func(t *testing.T) pushRun {
		return pushRun{tasks: []string{"t-1", "t-2"}, creds: []string{"c-1", "c-2"},
			answers:  map[string]int{mockvendor.DeliveryForged: 401, mockvendor.DeliveryUnsigned: 401},
			outcomes: []*contract.DelegationOutcome{pushDone(t, whole), pushDone(t, whole)}}
	}
	with := func(p pushRun, f func(*pushRun)) pushRun { f(&p); return p }
	unanswered := func(kinds ...string) func(*pushRun) {
		return func(p *pushRun) {
			p.answers = map[string]int{mockvendor.DeliveryForged: 401, mockvendor.DeliveryUnsigned: 401}
			for _, k := range kinds {
				p.answers[k] = -1
			}
		}
	}
	cases := []struct {
		check, name string
		run         func(t *testing.T) pushRun
		want        Outcome
		detail      string
	}{
		{"PUSH-001.ACK", "2xx to every genuine delivery", good, Pass, ""},
		{"PUSH-001.ACK", "401 to the genuine ones (checks X-A2A-Notification-Token)", func(t *testing.T) pushRun {
			return with(good(t), func(p *pushRun) {
				p.answers = map[string]int{mockvendor.DeliveryGenuine: 401, mockvendor.DeliveryForged: 401}
			})
		}, Fail, "HTTP 401"},
		{"PUSH-001.ACK", "409 to the duplicate", func(t *testing.T) pushRun {
			return with(good(t), func(p *pushRun) { p.answers[mockvendor.DeliveryDuplicate] = 409 })
		}, Fail, "duplicate"},
		{"PUSH-001.ACK", "the receiver never answered", func(t *testing.T) pushRun {
			return with(good(t), unanswered(mockvendor.DeliveryGenuine, mockvendor.DeliveryDuplicate))
		}, NotExercised, ""},
		{"PUSH-001.ACK", "no webhook registered", func(t *testing.T) pushRun { return with(good(t), func(p *pushRun) { p.noHook = true }) }, NotApplicable, ""},

		{"PUSH-001.FORGED", "both refused", good, Pass, ""},
		{"PUSH-001.FORGED", "the forged one accepted", func(t *testing.T) pushRun {
			return with(good(t), func(p *pushRun) { p.answers[mockvendor.DeliveryForged] = 200 })
		}, Fail, "forged"},
		{"PUSH-001.FORGED", "the unsigned one accepted (only the presence of a header checked)", func(t *testing.T) pushRun {
			return with(good(t), func(p *pushRun) { p.answers[mockvendor.DeliveryUnsigned] = 204 })
		}, Fail, "unsigned"},
		{"PUSH-001.FORGED", "neither answered", func(t *testing.T) pushRun {
			return with(good(t), unanswered(mockvendor.DeliveryForged, mockvendor.DeliveryUnsigned))
		}, NotExercised, ""},
		{"PUSH-001.FORGED", "no webhook registered", func(t *testing.T) pushRun { return with(good(t), func(p *pushRun) { p.noHook = true }) }, NotApplicable, ""},

		{"PUSH-001.UNKNOWN-TASK", "ignored", good, Pass, ""},
		{"PUSH-001.UNKNOWN-TASK", "reported as the task's failure", func(t *testing.T) pushRun {
			return with(good(t), func(p *pushRun) {
				p.outcomes[0] = &contract.DelegationOutcome{Outcome: contract.OutcomeFailed, TaskState: "TASK_STATE_FAILED", StatusText: mockvendor.PushTrialUnknownTaskText}
			})
		}, Fail, "unknown task"},
		{"PUSH-001.UNKNOWN-TASK", "failed, no state named, the unknown one taken", func(t *testing.T) pushRun {
			return with(good(t), func(p *pushRun) { p.outcomes[0] = &contract.DelegationOutcome{Outcome: contract.OutcomeFailed} })
		}, Fail, "only the delivery for an unknown task"},
		{"PUSH-001.UNKNOWN-TASK", "failed, the unknown one and a forged one taken", func(t *testing.T) pushRun {
			return with(good(t), func(p *pushRun) {
				p.answers[mockvendor.DeliveryForged] = 200
				p.outcomes[0] = &contract.DelegationOutcome{Outcome: contract.OutcomeFailed}
			})
		}, NotExercised, "cannot be told"},
		{"PUSH-001.UNKNOWN-TASK", "the other task's id reported", func(t *testing.T) pushRun {
			return with(good(t), func(p *pushRun) { p.outcomes[1] = pushDone(t, whole); p.outcomes[1].TaskID = "t-other" })
		}, Fail, "t-other"},
		{"PUSH-001.UNKNOWN-TASK", "never answered", func(t *testing.T) pushRun { return with(good(t), unanswered(mockvendor.DeliveryUnknownTask)) }, NotExercised, ""},
		{"PUSH-001.UNKNOWN-TASK", "no webhook registered", func(t *testing.T) pushRun { return with(good(t), func(p *pushRun) { p.noHook = true }) }, NotApplicable, ""},

		{"PUSH-001.DUPLICATE", "the chunk once", good, Pass, ""},
		{"PUSH-001.DUPLICATE", "the chunk appended twice", func(t *testing.T) pushRun {
			return with(good(t), func(p *pushRun) { p.outcomes[0] = pushDone(t, whole+pushChunk2) })
		}, Fail, "2 times"},
		{"PUSH-001.DUPLICATE", "no artifacts reported", func(t *testing.T) pushRun {
			return with(good(t), func(p *pushRun) { p.outcomes = []*contract.DelegationOutcome{pushDone(t, ""), pushDone(t, "")} })
		}, NotExercised, ""},
		{"PUSH-001.DUPLICATE", "the duplicate never answered", func(t *testing.T) pushRun { return with(good(t), unanswered(mockvendor.DeliveryDuplicate)) }, NotExercised, ""},
		{"PUSH-001.DUPLICATE", "no webhook registered", func(t *testing.T) pushRun { return with(good(t), func(p *pushRun) { p.noHook = true }) }, NotApplicable, ""},

		{"PUSH-001.OUTCOME", "completed with the report", good, Pass, ""},
		{"PUSH-001.OUTCOME", "canceled, as the forged delivery said", func(t *testing.T) pushRun {
			return with(good(t), func(p *pushRun) {
				p.outcomes[0] = &contract.DelegationOutcome{Outcome: contract.OutcomeFailed, TaskState: "canceled", StatusText: mockvendor.PushTrialForgedText}
			})
		}, Fail, "forged"},
		{"PUSH-001.OUTCOME", "the unsigned text appended", func(t *testing.T) pushRun {
			return with(good(t), func(p *pushRun) { p.outcomes[1] = pushDone(t, whole+mockvendor.PushTrialUnsignedText) })
		}, Fail, "unsigned"},
		{"PUSH-001.OUTCOME", "neither forged delivery answered", func(t *testing.T) pushRun {
			return with(good(t), unanswered(mockvendor.DeliveryForged, mockvendor.DeliveryUnsigned))
		}, NotExercised, ""},
		{"PUSH-001.OUTCOME", "no webhook registered", func(t *testing.T) pushRun { return with(good(t), func(p *pushRun) { p.noHook = true }) }, NotApplicable, ""},

		{"PUSH-001.TOKEN", "a credential per config", good, Pass, ""},
		{"PUSH-001.TOKEN", "one credential for both", func(t *testing.T) pushRun {
			return with(good(t), func(p *pushRun) { p.creds = []string{"c-1", "c-1"} })
		}, Fail, "same credential"},
		{"PUSH-001.TOKEN", "a config without a credential", func(t *testing.T) pushRun {
			return with(good(t), func(p *pushRun) { p.creds = []string{"c-1", ""} })
		}, Fail, "no credential"},
		{"PUSH-001.TOKEN", "one registration only", func(t *testing.T) pushRun {
			return with(good(t), func(p *pushRun) { p.tasks, p.creds, p.outcomes = p.tasks[:1], p.creds[:1], p.outcomes[:1] })
		}, NotExercised, ""},
		{"PUSH-001.TOKEN", "no webhook registered", func(t *testing.T) pushRun { return with(good(t), func(p *pushRun) { p.noHook = true }) }, NotApplicable, ""},
	}
	for _, c := range cases {
		t.Run(c.check+"/"+c.name, func(t *testing.T) {
			v, _ := resCheck(t, c.check).Evaluate(c.run(t).run())
			if v.Outcome != c.want || !strings.Contains(v.Detail, c.detail) {
				t.Errorf("got %s %q, want %s containing %q", v.Outcome, v.Detail, c.want, c.detail)
			}
		})
	}
}
