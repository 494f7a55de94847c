package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2apb"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/proto"
)

// shimClient makes the calls the TCK's generated stub makes
// (specification/generated/a2a_pb2_grpc.py at a2a-tck 357c4a8: the
// factories with _registered_method=True) over a TLS channel trusting the
// CA in argv[2], the way the TCK's patched GrpcClient opens it, with the
// TCK's a2a-version metadata. Messages are hand-encoded (GetTaskRequest
// and SubscribeToTaskRequest: id is field 2) so that no generated Python
// module is needed; answers are printed as hex for the test to decode.
const shimClient = `
import grpc, json, sys
with open(sys.argv[2], "rb") as f:
    creds = grpc.ssl_channel_credentials(root_certificates=f.read())
ch = grpc.secure_channel(sys.argv[1], creds)
raw = lambda b: b
get = ch.unary_unary("/lf.a2a.v1.A2AService/GetTask",
    request_serializer=raw, response_deserializer=raw, _registered_method=True)
sub = ch.unary_stream("/lf.a2a.v1.A2AService/SubscribeToTask",
    request_serializer=raw, response_deserializer=raw, _registered_method=True)
md = (("a2a-version", "1.0"),)
out = {"unary": get(b"\x12\x03t-1", timeout=20, metadata=md).hex(),
       "stream": [m.hex() for m in sub(b"\x12\x03t-2", timeout=20, metadata=md)]}
try:
    ch.unary_unary("/lf.a2a.v1.A2AService/GetTask", bogus=True)
    out["otherKeyword"] = "accepted"
except TypeError:
    out["otherKeyword"] = "TypeError"
print(json.dumps(out))
`

// echoA2A answers GetTask and SubscribeToTask with tasks named after the
// request id and the a2a-version metadata the call carried.
type echoA2A struct {
	a2apb.UnimplementedA2AServiceServer
}

func versionOf(ctx context.Context) string {
	md, _ := metadata.FromIncomingContext(ctx)
	return strings.Join(md.Get("a2a-version"), ",")
}

func (echoA2A) GetTask(ctx context.Context, r *a2apb.GetTaskRequest) (*a2apb.Task, error) {
	return &a2apb.Task{Id: r.GetId(), ContextId: "v" + versionOf(ctx)}, nil
}

func (echoA2A) SubscribeToTask(r *a2apb.SubscribeToTaskRequest, s grpc.ServerStreamingServer[a2apb.StreamResponse]) error {
	for _, st := range []a2apb.TaskState{a2apb.TaskState_TASK_STATE_WORKING, a2apb.TaskState_TASK_STATE_COMPLETED} {
		ev := &a2apb.StreamResponse{Payload: &a2apb.StreamResponse_StatusUpdate{StatusUpdate: &a2apb.TaskStatusUpdateEvent{
			TaskId: r.GetId(), ContextId: "v" + versionOf(s.Context()), Status: &a2apb.TaskStatus{State: st},
		}}}
		if err := s.Send(ev); err != nil {
			return err
		}
	}
	return nil
}

// selfSigned returns a TLS certificate for 127.0.0.1 and its PEM.
func selfSigned(t *testing.T) (tls.Certificate, []byte) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "tck python shim test"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(time.Hour),
		IPAddresses:           []net.IP{net.IPv4(127, 0, 0, 1)},
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
}

// noProxyEnv is the environment without proxy variables (gRPC Python
// honours https_proxy and grpc_proxy) so the call goes to the loopback
// server directly.
func noProxyEnv(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch strings.ToLower(k) {
		case "https_proxy", "http_proxy", "all_proxy", "grpc_proxy", "pythonpath", "tck_python_base":
			continue
		}
		env = append(env, kv)
	}
	return append(env, extra...)
}

// TestPythonShim runs tck/python.sh (the TCK_PYTHON of the gRPC TCK run)
// against a real grpc-go A2AService over TLS on loopback: the calls the
// TCK's generated stub makes, with _registered_method=True, reach the
// server with the same method paths and metadata and bring back its
// answers, while any other unknown keyword is still refused. Without the
// shim, bookworm's grpcio 1.51 refuses _registered_method (the reason
// for the shim; a grpcio that accepts it makes the shim a no-op). Skips
// when /usr/bin/python3 has no grpcio (run.sh installs python3-grpcio).
func TestPythonShim(t *testing.T) {
	py := "/usr/bin/python3"
	if err := exec.Command(py, "-c", "import grpc").Run(); err != nil {
		t.Skipf("%s cannot import grpc (python3-grpcio, which ../shared/tck/run.sh installs): %v", py, err)
	}
	cert, caPEM := selfSigned(t)
	dir := t.TempDir()
	caFile := filepath.Join(dir, "ca.pem")
	script := filepath.Join(dir, "client.py")
	if err := os.WriteFile(caFile, caPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(script, []byte(shimClient), 0o600); err != nil {
		t.Fatal(err)
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer(grpc.Creds(credentials.NewTLS(&tls.Config{Certificates: []tls.Certificate{cert}})))
	a2apb.RegisterA2AServiceServer(srv, echoA2A{})
	go srv.Serve(lis)
	defer srv.Stop()
	shim, err := filepath.Abs("python.sh")
	if err != nil {
		t.Fatal(err)
	}

	run := func(interp string) ([]byte, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, interp, script, lis.Addr().String(), caFile)
		cmd.Dir = dir // as run.sh does: the interpreter is called from elsewhere
		cmd.Env = noProxyEnv("NO_PROXY=127.0.0.1", "no_proxy=127.0.0.1")
		return cmd.Output()
	}

	out, err := run(shim)
	if err != nil {
		stderr := ""
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("python.sh: %v\n%s%s", err, out, stderr)
	}
	var got struct {
		Unary        string   `json:"unary"`
		Stream       []string `json:"stream"`
		OtherKeyword string   `json:"otherKeyword"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("python.sh printed %q: %v", out, err)
	}
	var task a2apb.Task
	if err := decodeHex(got.Unary, &task); err != nil || task.GetId() != "t-1" || task.GetContextId() != "v1.0" {
		t.Errorf("GetTask answer %v (%v), want id t-1 and a2a-version 1.0 seen", &task, err)
	}
	var states []string
	for _, h := range got.Stream {
		var ev a2apb.StreamResponse
		if err := decodeHex(h, &ev); err != nil {
			t.Fatal(err)
		}
		su := ev.GetStatusUpdate()
		if su.GetTaskId() != "t-2" || su.GetContextId() != "v1.0" {
			t.Errorf("stream event %v, want task t-2 and a2a-version 1.0 seen", &ev)
		}
		states = append(states, su.GetStatus().GetState().String())
	}
	if strings.Join(states, " ") != "TASK_STATE_WORKING TASK_STATE_COMPLETED" {
		t.Errorf("SubscribeToTask states %q, want WORKING then COMPLETED", states)
	}
	if got.OtherKeyword != "TypeError" {
		t.Errorf("an unknown keyword other than _registered_method was %s; the shim must drop that one only", got.OtherKeyword)
	}

	// The same client on the bare interpreter: why the shim exists.
	out, err = run(py)
	switch ee, _ := err.(*exec.ExitError); {
	case err == nil:
		t.Logf("%s's grpcio accepts _registered_method itself; the shim is a no-op there", py)
	case ee != nil && strings.Contains(string(ee.Stderr), "unexpected keyword argument '_registered_method'"):
		t.Logf("without the shim: %s", lastLine(string(ee.Stderr)))
	default:
		t.Errorf("without the shim the client failed for another reason: %v\n%s", err, out)
	}
}

func decodeHex(h string, m proto.Message) error {
	b, err := hex.DecodeString(h)
	if err != nil {
		return err
	}
	return proto.Unmarshal(b, m)
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// oneModuleClient imports the TCK's generated package the way its client
// and stub do (specification.generated.a2a_pb2, then the stub's top-level
// `import a2a_pb2`, on the path the package's __init__ adds) and prints
// whether both names are one module and how often its code ran.
const oneModuleClient = `
import builtins, json
from specification.generated import a2a_pb2 as pkg
import a2a_pb2 as top
print(json.dumps({"same": pkg is top, "runs": builtins.A2A_RUNS, "topName": top.__name__}))
`

// TestPythonShimOneA2AModule: under python.sh the stub's top-level
// a2a_pb2 is the package's specification.generated.a2a_pb2, so there is
// one class per message as with PyPI's protobuf (upb); without the shim
// (bookworm's cpp backend) they are two modules and two classes per
// message. A top-level a2a_pb2 imported before the package is left alone.
func TestPythonShimOneA2AModule(t *testing.T) {
	py := "/usr/bin/python3"
	if _, err := os.Stat(py); err != nil {
		t.Skipf("no %s", py)
	}
	dir := t.TempDir()
	gen := filepath.Join(dir, "specification", "generated")
	if err := os.MkdirAll(gen, 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		// The TCK's specification/generated/__init__.py, in short.
		filepath.Join(gen, "__init__.py"): "import sys\nfrom pathlib import Path\n_d = str(Path(__file__).parent)\nif _d not in sys.path:\n    sys.path.insert(0, _d)\n",
		filepath.Join(gen, "a2a_pb2.py"):  "import builtins\nbuiltins.A2A_RUNS = getattr(builtins, 'A2A_RUNS', 0) + 1\nRUNS = builtins.A2A_RUNS\n",
		filepath.Join(dir, "client.py"):   oneModuleClient,
	}
	for name, body := range files {
		if err := os.WriteFile(name, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	shim, err := filepath.Abs("python.sh")
	if err != nil {
		t.Fatal(err)
	}
	type result struct {
		Same    bool   `json:"same"`
		Runs    int    `json:"runs"`
		TopName string `json:"topName"`
	}
	run := func(interp string, args ...string) result {
		t.Helper()
		cmd := exec.Command(interp, args...)
		cmd.Dir = dir
		cmd.Env = noProxyEnv("PYTHONPATH=" + dir)
		out, err := cmd.Output()
		if err != nil {
			stderr := ""
			if ee, ok := err.(*exec.ExitError); ok {
				stderr = string(ee.Stderr)
			}
			t.Fatalf("%s %v: %v\n%s%s", interp, args, err, out, stderr)
		}
		var r result
		if err := json.Unmarshal(out, &r); err != nil {
			t.Fatalf("%s printed %q: %v", interp, out, err)
		}
		return r
	}
	if got := run(shim, "client.py"); !got.Same || got.Runs != 1 || got.TopName != "specification.generated.a2a_pb2" {
		t.Errorf("python.sh: %+v, want one module specification.generated.a2a_pb2 executed once", got)
	}
	if got := run(py, "client.py"); got.Same || got.Runs != 2 {
		t.Errorf("bare interpreter: %+v, want two modules (the reason for the shim)", got)
	}
	// a2a_pb2 found on the path before the package is imported: not aliased.
	early := "import sys; sys.path.insert(0, 'specification/generated'); import a2a_pb2, json; print(json.dumps({'same': False, 'runs': a2a_pb2.RUNS, 'topName': a2a_pb2.__name__}))"
	if got := run(shim, "-c", early); got.TopName != "a2a_pb2" || got.Runs != 1 {
		t.Errorf("python.sh, a2a_pb2 without the package: %+v, want the plain module a2a_pb2", got)
	}
}
