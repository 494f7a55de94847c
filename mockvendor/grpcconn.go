package mockvendor

import (
	"context"
	"crypto/tls"
	"net/http"

	"golang.org/x/net/http2"

	grpcbinding "github.com/a2a-conform/a2a-conform/mockvendor/internal/binding/grpc"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/netx"
	"github.com/a2a-conform/a2a-conform/mockvendor/internal/trace"
)

// A host with HostConfig.GRPC offers h2 after http/1.1 (host.alpn): a
// gRPC client offers only h2 and gets it, an HTTP client that offers
// both keeps HTTP/1.1. The fleet's server does the TLS handshake (so the
// connection cap, refuse-connections, the certificate faults and a
// broken-off handshake's trace are the same for every connection), then
// serves a connection that negotiated h2 on grpc-go's own transport
// (grpcbinding.Server.ServeConn): HTTP/2 on a gRPC host is gRPC. A
// request that is not a gRPC call (an HTTP client that offers only h2)
// is answered by grpc-go's transport, 415 Unsupported Media Type, and is
// not traced.

// serveH2 serves c, a host connection that negotiated h2 (net/http's
// TLSNextProto): on grpc-go's transport, or, past Limits.MaxConns or on
// a host without the gRPC binding, on net/http's HTTP/2 server with the
// fleet's handler (which answers an over-cap connection's requests 503).
// It returns when c is done with; net/http then closes it.
func (f *Fleet) serveH2(s *http.Server, c *tls.Conn, h http.Handler) {
	ctx := context.Background()
	if b, ok := h.(interface{ BaseContext() context.Context }); ok {
		ctx = b.BaseContext()
	}
	hc := connOf(c)
	overCap := netx.OverCap((&http.Request{}).WithContext(ctx))
	if hc == nil || !hc.host.cfg.GRPC || f.grpc == nil || overCap {
		new(http2.Server).ServeConn(c, &http2.ServeConnOpts{Context: ctx, BaseConfig: s, Handler: h})
		return
	}
	f.grpc.ServeConn(c, (*bindingHost)(hc.host))
}

var _ grpcbinding.TransportHost = (*bindingHost)(nil)

// OpenCall begins the trace event of a gRPC call on grpc-go's transport
// (grpcbinding.TransportHost), as host.serve does for a request, and
// holds the fleet open (Fleet.Close waits) until the returned function
// completes the event.
func (b *bindingHost) OpenCall(r *http.Request) (*trace.Event, func(), bool) {
	h := b.h()
	f := h.vendor.fleet
	if !f.enter() {
		return nil, nil, false
	}
	ev := h.newEvent(r)
	seq := f.trace.Begin(ev)
	return &ev, func() {
		defer f.active.Done()
		h.finishEvent(seq, &ev)
	}, true
}
