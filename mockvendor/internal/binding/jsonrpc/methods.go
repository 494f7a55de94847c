package jsonrpc

import (
	"strings"

	"github.com/a2a-conform/a2a-conform/mockvendor/internal/a2a"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/binding"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
)

// The JSON-RPC method table: which operation and dialect each method name
// the fleet knows stands for. It is binding knowledge tied to the trace's
// Op; the dialects themselves live in internal/a2a.

// methods maps every JSON-RPC method name the fleet knows to its operation.
var methods = map[string]binding.MethodInfo{
	"tasks/send":                          {Op: trace.OpSend, Dialect: a2a.Dialect01},
	"tasks/sendSubscribe":                 {Op: trace.OpStream, Dialect: a2a.Dialect01},
	"message/send":                        {Op: trace.OpSend, Dialect: a2a.Dialect03},
	"message/stream":                      {Op: trace.OpStream, Dialect: a2a.Dialect03},
	"tasks/get":                           {Op: trace.OpGet, Dialect: ""},
	"tasks/cancel":                        {Op: trace.OpCancel, Dialect: ""},
	"SendMessage":                         {Op: trace.OpSend, Dialect: a2a.Dialect10},
	"SendStreamingMessage":                {Op: trace.OpStream, Dialect: a2a.Dialect10},
	"GetTask":                             {Op: trace.OpGet, Dialect: a2a.Dialect10},
	"CancelTask":                          {Op: trace.OpCancel, Dialect: a2a.Dialect10},
	"ListTasks":                           {Op: trace.OpList, Dialect: a2a.Dialect10},
	"SubscribeToTask":                     {Op: trace.OpSubscribe, Dialect: a2a.Dialect10},
	"GetExtendedAgentCard":                {Op: trace.OpExtendedCard, Dialect: a2a.Dialect10},
	"tasks/resubscribe":                   {Op: trace.OpSubscribe, Dialect: ""},
	"agent/getAuthenticatedExtendedCard":  {Op: trace.OpExtendedCard, Dialect: a2a.Dialect03},
	"tasks/pushNotification/set":          {Op: trace.OpPushConfig, Dialect: a2a.Dialect01},
	"tasks/pushNotification/get":          {Op: trace.OpPushConfig, Dialect: a2a.Dialect01},
	"tasks/pushNotificationConfig/set":    {Op: trace.OpPushConfig, Dialect: a2a.Dialect03},
	"tasks/pushNotificationConfig/get":    {Op: trace.OpPushConfig, Dialect: a2a.Dialect03},
	"tasks/pushNotificationConfig/list":   {Op: trace.OpPushConfig, Dialect: a2a.Dialect03},
	"tasks/pushNotificationConfig/delete": {Op: trace.OpPushConfig, Dialect: a2a.Dialect03},
	"CreateTaskPushNotificationConfig":    {Op: trace.OpPushConfig, Dialect: a2a.Dialect10},
	"GetTaskPushNotificationConfig":       {Op: trace.OpPushConfig, Dialect: a2a.Dialect10},
	"ListTaskPushNotificationConfigs":     {Op: trace.OpPushConfig, Dialect: a2a.Dialect10},
	"DeleteTaskPushNotificationConfig":    {Op: trace.OpPushConfig, Dialect: a2a.Dialect10},
}

// dialectFromHeader guesses the dialect of a request whose method does not
// tell (tasks/get, an unknown method) from its A2A-Version header.
func dialectFromHeader(v string) a2a.Dialect {
	if strings.HasPrefix(v, "1.") {
		return a2a.Dialect10
	}
	return a2a.Dialect03
}
