package ops

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/push"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/tasks"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
)

// The push-notification config methods (A2A 1.0.1 §3.1.7-§3.1.10; 0.3
// tasks/pushNotificationConfig/*; 0.1 tasks/pushNotification/*). They follow
// the card's capabilities.pushNotifications (CardConfig.PushNotifications):
// without it every one answers -32003 PushNotificationNotSupported (§3.3.4);
// with it the vendor keeps, returns, lists and deletes the configs of its
// tasks in its push.Store, which POSTs each change of a task's state to
// the configs' URLs (internal/push: loopback only, bounded).

// pushParams are the params of every push-config method of every dialect:
// 1.0 has the TaskPushNotificationConfig flat (taskId, id, url, token,
// authentication) or {taskId, id}; 0.3 {taskId, pushNotificationConfig}
// for set and {id, pushNotificationConfigId} for the rest; 0.1 {id,
// pushNotificationConfig}.
type pushParams struct {
	ID                       string          `json:"id"`
	TaskID                   string          `json:"taskId"`
	URL                      string          `json:"url"`
	Token                    string          `json:"token"`
	Authentication           json.RawMessage `json:"authentication"`
	PushNotificationConfig   *pushConfigJSON `json:"pushNotificationConfig"`
	PushNotificationConfigID string          `json:"pushNotificationConfigId"`
}

// pushConfigJSON is a 0.x PushNotificationConfig.
type pushConfigJSON struct {
	ID             string          `json:"id,omitempty"`
	URL            string          `json:"url"`
	Token          string          `json:"token,omitempty"`
	Authentication json.RawMessage `json:"authentication,omitempty"`
}

// pushVerb is what a push-config method does.
type pushVerb int

const (
	pushSet pushVerb = iota
	pushGet
	pushList
	pushDelete
)

// pushVerbs maps each push-config method to its verb.
var pushVerbs = map[string]pushVerb{
	"tasks/pushNotification/set":          pushSet,
	"tasks/pushNotification/get":          pushGet,
	"tasks/pushNotificationConfig/set":    pushSet,
	"tasks/pushNotificationConfig/get":    pushGet,
	"tasks/pushNotificationConfig/list":   pushList,
	"tasks/pushNotificationConfig/delete": pushDelete,
	"CreateTaskPushNotificationConfig":    pushSet,
	"GetTaskPushNotificationConfig":       pushGet,
	"ListTaskPushNotificationConfigs":     pushList,
	"DeleteTaskPushNotificationConfig":    pushDelete,
}

// pushMethod answers a push-config method for a vendor whose card claims
// push notifications: the task must exist (-32001), a set needs a url
// (-32602), a get names an existing config (-32602 otherwise; 0.x may
// leave the id out for the task's first config), a delete of a config
// that is not there succeeds.
func pushMethod(v Vendor, q *Request) (Result, error) {
	var p pushParams
	if err := json.Unmarshal(a2a.ProtoNamesToJSON(NonNull(q.Params)), &p); err != nil {
		return Result{}, a2a.InvalidParams(err.Error())
	}
	verb := pushVerbs[q.Method]
	// The task and the config the params name, per dialect.
	taskID, cfgID := p.ID, p.PushNotificationConfigID
	switch {
	case q.Dialect == a2a.Dialect10:
		taskID, cfgID = p.TaskID, p.ID
	case q.Dialect == a2a.Dialect03 && verb == pushSet:
		taskID = p.TaskID
	}
	if taskID == "" {
		field := "params.id"
		if q.Dialect == a2a.Dialect10 || q.Dialect == a2a.Dialect03 && verb == pushSet {
			field = "params.taskId"
		}
		return Result{}, a2a.InvalidParams(field + " (the task) is required")
	}

	t := v.Tasks().Get(v.ID(), taskID)
	if t == nil {
		return Result{}, a2a.TaskNotFound(taskID)
	}
	st, pv := v.Push()
	switch verb {
	case pushSet:
		c := push.Config{ID: cfgID, URL: p.URL, Token: p.Token, Auth: p.Authentication}
		if q.Dialect != a2a.Dialect10 {
			if p.PushNotificationConfig == nil {
				return Result{}, a2a.InvalidParams("params.pushNotificationConfig is required")
			}
			pc := p.PushNotificationConfig
			c = push.Config{ID: pc.ID, URL: pc.URL, Token: pc.Token, Auth: pc.Authentication}
		}
		if c.URL == "" {
			return Result{}, a2a.InvalidParams("the push notification config's url is required")
		}
		if c.ID == "" {
			c.ID = tasks.NewID("pnc-")
		}
		c.Dialect = q.Dialect
		if err := st.Set(taskID, c); err != nil {
			return Result{}, a2a.InvalidParams(err.Error())
		}
		st.Watch(pv, t)
		return Result{Value: encodePushConfig(taskID, c, q.Dialect), TaskID: taskID, Webhook: c.Webhook()}, nil
	case pushGet:
		cs := st.List(taskID)
		i := slices.IndexFunc(cs, func(x push.Config) bool { return x.ID == cfgID })
		if cfgID == "" && q.Dialect != a2a.Dialect10 && len(cs) > 0 {
			i = 0
		}
		if i < 0 {
			if cfgID == "" {
				return Result{}, a2a.InvalidParams(fmt.Sprintf("task %s has no push notification config", taskID))
			}
			return Result{}, a2a.InvalidParams(fmt.Sprintf("task %s has no push notification config %q", taskID, cfgID))
		}
		return Result{Value: encodePushConfig(taskID, cs[i], q.Dialect), TaskID: taskID}, nil
	case pushList:
		cs := st.List(taskID)
		out := make([]any, 0, len(cs))
		for _, c := range cs {
			out = append(out, encodePushConfig(taskID, c, q.Dialect))
		}
		if q.Dialect == a2a.Dialect10 {
			// One page holds them all (at most push.MaxPerTask).
			return Result{Value: map[string]any{"configs": out, "nextPageToken": ""}, TaskID: taskID}, nil
		}
		return Result{Value: out, TaskID: taskID}, nil
	}
	if cfgID == "" {
		return Result{}, a2a.InvalidParams("the config id to delete is required")
	}
	st.Remove(taskID, cfgID)
	if q.Dialect == a2a.Dialect10 {
		return Result{Value: map[string]any{}, TaskID: taskID}, nil // google.protobuf.Empty
	}
	return Result{Value: nil, TaskID: taskID}, nil // 0.3: result null
}

// encodePushConfig renders a stored config as the dialect's
// TaskPushNotificationConfig.
func encodePushConfig(taskID string, c push.Config, d a2a.Dialect) map[string]any {
	if d == a2a.Dialect10 {
		out := map[string]any{"id": c.ID, "taskId": taskID, "url": c.URL}
		if c.Token != "" {
			out["token"] = c.Token
		}
		if len(c.Auth) > 0 && string(c.Auth) != "null" {
			out["authentication"] = c.Auth
		}
		return out
	}
	pc := map[string]any{"url": c.URL}
	if d == a2a.Dialect03 {
		pc["id"] = c.ID
	}
	if c.Token != "" {
		pc["token"] = c.Token
	}
	if len(c.Auth) > 0 && string(c.Auth) != "null" {
		pc["authentication"] = c.Auth
	}
	if d == a2a.Dialect01 {
		return map[string]any{"id": taskID, "pushNotificationConfig": pc}
	}
	return map[string]any{"taskId": taskID, "pushNotificationConfig": pc}
}

// inlinePush reads the push config a send may carry for the task it
// creates (1.0 SendMessageConfiguration.taskPushNotificationConfig, with
// no taskId; 0.3 MessageSendConfiguration.pushNotificationConfig; 0.1
// TaskSendParams.pushNotification) and, for a vendor whose card claims
// push notifications, stores it and follows the task. Such a config exists
// from the task's creation, so the task's state when the send is answered
// is delivered too (for a blocking send, its end state). A vendor without
// the capability ignores the member, as before. A config without a url is
// -32602.
func inlinePush(v Vendor, q *Request, t *tasks.Task) error {

	if !v.PushNotifications() || !mayHavePushConfig(q.Params) {
		return nil
	}
	var p struct {
		Configuration    json.RawMessage `json:"configuration"`
		PushNotification *pushConfigJSON `json:"pushNotification"` // 0.1
	}
	if json.Unmarshal(NonNull(q.Params), &p) != nil {
		return nil // the send's own decoder judged the params
	}
	pc := p.PushNotification
	if q.Dialect != a2a.Dialect01 {
		var conf struct {
			Task *pushConfigJSON `json:"taskPushNotificationConfig"`
			Push *pushConfigJSON `json:"pushNotificationConfig"`
		}
		_ = json.Unmarshal(a2a.ProtoNamesToJSON(NonNull(p.Configuration)), &conf)
		pc = conf.Push
		if q.Dialect == a2a.Dialect10 && conf.Task != nil {
			pc = conf.Task
		}
	}
	if pc == nil {
		return nil
	}
	if pc.URL == "" {
		return a2a.InvalidParams("the send's push notification config has no url")
	}
	id := pc.ID
	if id == "" {
		id = tasks.NewID("pnc-")
	}
	c := push.Config{ID: id, URL: pc.URL, Token: pc.Token, Auth: pc.Authentication, Dialect: q.Dialect}
	st, pv := v.Push()
	if err := st.Set(t.ID, c); err != nil {
		return a2a.InvalidParams(err.Error())
	}
	st.WatchNew(pv, t)
	return nil
}

// inlineWebhook is the config a send that created task t carried, as the
// trace records its registration (nil when it carried none).
func inlineWebhook(v Vendor, q *Request, t *tasks.Task) *trace.Webhook {
	if !v.PushNotifications() || q.Call.Message == nil || t.Input != q.Call.Message || !mayHavePushConfig(q.Params) {
		return nil
	}
	st, _ := v.Push()
	if cs := st.List(t.ID); len(cs) > 0 {
		return cs[0].Webhook()
	}
	return nil
}

// mayHavePushConfig reports whether send params could name a push config
// (a member pushNotification..., taskPushNotification... or the proto
// spelling ..._push_notification_config): the common send, which names
// none, is not decoded a second time.
func mayHavePushConfig(params []byte) bool {
	return bytes.Contains(params, []byte("ushNotification")) || bytes.Contains(params, []byte("push_notification"))
}
