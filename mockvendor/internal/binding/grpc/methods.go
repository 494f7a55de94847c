package grpc

import (
	"github.com/a2a-conform/a2a-conform/internal/a2apb"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
)

// Name is the protocolBinding a card names the binding by (A2A 1.0
// §4.4.6; mockvendor.BindingGRPC).
const Name = "GRPC"

// method is a method of A2AService: its name (the 1.0 method name the
// other bindings use) and its operation.
type method struct {
	name string
	op   trace.Op
}

// methods maps the full gRPC method names of A2AService to the
// operations they stand for.
var methods = map[string]method{
	a2apb.A2AService_SendMessage_FullMethodName:                      {"SendMessage", trace.OpSend},
	a2apb.A2AService_SendStreamingMessage_FullMethodName:             {"SendStreamingMessage", trace.OpStream},
	a2apb.A2AService_GetTask_FullMethodName:                          {"GetTask", trace.OpGet},
	a2apb.A2AService_ListTasks_FullMethodName:                        {"ListTasks", trace.OpList},
	a2apb.A2AService_CancelTask_FullMethodName:                       {"CancelTask", trace.OpCancel},
	a2apb.A2AService_SubscribeToTask_FullMethodName:                  {"SubscribeToTask", trace.OpSubscribe},
	a2apb.A2AService_CreateTaskPushNotificationConfig_FullMethodName: {"CreateTaskPushNotificationConfig", trace.OpPushConfig},
	a2apb.A2AService_GetTaskPushNotificationConfig_FullMethodName:    {"GetTaskPushNotificationConfig", trace.OpPushConfig},
	a2apb.A2AService_ListTaskPushNotificationConfigs_FullMethodName:  {"ListTaskPushNotificationConfigs", trace.OpPushConfig},
	a2apb.A2AService_GetExtendedAgentCard_FullMethodName:             {"GetExtendedAgentCard", trace.OpExtendedCard},
	a2apb.A2AService_DeleteTaskPushNotificationConfig_FullMethodName: {"DeleteTaskPushNotificationConfig", trace.OpPushConfig},
}
