package mockvendor

import "strings"

// The JSON-RPC method table: which operation and dialect each method name
// the fleet knows stands for. It is binding knowledge tied to the trace's
// Op; the dialects themselves live in internal/a2a.

type methodInfo struct {
	op      Op
	dialect Dialect // "" for names both 0.1 and 0.3 use
}

// methods maps every JSON-RPC method name the fleet knows to its operation.
var methods = map[string]methodInfo{
	"tasks/send":                          {OpSend, Dialect01},
	"tasks/sendSubscribe":                 {OpStream, Dialect01},
	"message/send":                        {OpSend, Dialect03},
	"message/stream":                      {OpStream, Dialect03},
	"tasks/get":                           {OpGet, ""},
	"tasks/cancel":                        {OpCancel, ""},
	"SendMessage":                         {OpSend, Dialect10},
	"SendStreamingMessage":                {OpStream, Dialect10},
	"GetTask":                             {OpGet, Dialect10},
	"CancelTask":                          {OpCancel, Dialect10},
	"ListTasks":                           {OpList, Dialect10},
	"SubscribeToTask":                     {OpSubscribe, Dialect10},
	"GetExtendedAgentCard":                {OpExtendedCard, Dialect10},
	"tasks/resubscribe":                   {OpSubscribe, ""},
	"agent/getAuthenticatedExtendedCard":  {OpExtendedCard, Dialect03},
	"tasks/pushNotification/set":          {OpPushConfig, Dialect01},
	"tasks/pushNotification/get":          {OpPushConfig, Dialect01},
	"tasks/pushNotificationConfig/set":    {OpPushConfig, Dialect03},
	"tasks/pushNotificationConfig/get":    {OpPushConfig, Dialect03},
	"tasks/pushNotificationConfig/list":   {OpPushConfig, Dialect03},
	"tasks/pushNotificationConfig/delete": {OpPushConfig, Dialect03},
	"CreateTaskPushNotificationConfig":    {OpPushConfig, Dialect10},
	"GetTaskPushNotificationConfig":       {OpPushConfig, Dialect10},
	"ListTaskPushNotificationConfigs":     {OpPushConfig, Dialect10},
	"DeleteTaskPushNotificationConfig":    {OpPushConfig, Dialect10},
}

// dialectFromHeader guesses the dialect of a request whose method does not
// tell (tasks/get, an unknown method) from its A2A-Version header.
func dialectFromHeader(v string) Dialect {
	if strings.HasPrefix(v, "1.") {
		return Dialect10
	}
	return Dialect03
}
