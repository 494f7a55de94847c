package mockvendor

import "strings"

// The JSON-RPC method table: which operation and dialect each method name
// the fleet knows stands for. It is binding knowledge tied to the trace's
// Op; the dialects themselves live in internal/a2a.

type methodInfo struct {
	op      Op
	dialect Dialect // "" for names both 0.1 and 0.3 use
	push    bool    // a push-notification config method (answered -32003)
	// task is the task operation of a method the trace records as
	// OpOther: taskList (ListTasks) or taskSubscribe (SubscribeToTask,
	// tasks/resubscribe); "" for the rest.
	task taskOp
}

// taskOp names the task operations the trace has no Op of its own for.
type taskOp string

const (
	taskList      taskOp = "list"
	taskSubscribe taskOp = "subscribe"
)

// methods maps every JSON-RPC method name the fleet knows to its operation.
var methods = map[string]methodInfo{
	"tasks/send":                          {OpSend, Dialect01, false, ""},
	"tasks/sendSubscribe":                 {OpStream, Dialect01, false, ""},
	"message/send":                        {OpSend, Dialect03, false, ""},
	"message/stream":                      {OpStream, Dialect03, false, ""},
	"tasks/get":                           {OpGet, "", false, ""},
	"tasks/cancel":                        {OpCancel, "", false, ""},
	"SendMessage":                         {OpSend, Dialect10, false, ""},
	"SendStreamingMessage":                {OpStream, Dialect10, false, ""},
	"GetTask":                             {OpGet, Dialect10, false, ""},
	"CancelTask":                          {OpCancel, Dialect10, false, ""},
	"ListTasks":                           {OpOther, Dialect10, false, taskList},
	"SubscribeToTask":                     {OpOther, Dialect10, false, taskSubscribe},
	"GetExtendedAgentCard":                {OpOther, Dialect10, false, ""},
	"tasks/resubscribe":                   {OpOther, "", false, taskSubscribe},
	"agent/getAuthenticatedExtendedCard":  {OpOther, Dialect03, false, ""},
	"tasks/pushNotification/set":          {OpOther, Dialect01, true, ""},
	"tasks/pushNotification/get":          {OpOther, Dialect01, true, ""},
	"tasks/pushNotificationConfig/set":    {OpOther, Dialect03, true, ""},
	"tasks/pushNotificationConfig/get":    {OpOther, Dialect03, true, ""},
	"tasks/pushNotificationConfig/list":   {OpOther, Dialect03, true, ""},
	"tasks/pushNotificationConfig/delete": {OpOther, Dialect03, true, ""},
	"CreateTaskPushNotificationConfig":    {OpOther, Dialect10, true, ""},
	"GetTaskPushNotificationConfig":       {OpOther, Dialect10, true, ""},
	"ListTaskPushNotificationConfigs":     {OpOther, Dialect10, true, ""},
	"DeleteTaskPushNotificationConfig":    {OpOther, Dialect10, true, ""},
}

// dialectFromHeader guesses the dialect of a request whose method does not
// tell (tasks/get, an unknown method) from its A2A-Version header.
func dialectFromHeader(v string) Dialect {
	if strings.HasPrefix(v, "1.") {
		return Dialect10
	}
	return Dialect03
}
