// Package wire holds the plumbing the example orchestrators share: building
// an HTTP client from a delegation request's trust and network sections, a
// round tripper that stamps headers and fences hosts, reading server-sent
// events, and converting A2A messages between the wire generations.
//
// Nothing here decides anything about trust or routing; that is each
// orchestrator's own business.
package wire

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/a2a-conform/a2a-conform/contract"
)

// ClientOptions say how to build a client for a request.
type ClientOptions struct {
	// CAFile is a PEM file of extra roots (the fleet CA). Empty means the
	// system roots only.
	CAFile string
	// Proxy is an HTTP CONNECT proxy URL. Empty means dial directly, through
	// Resolve.
	Proxy string
	// Resolve maps "host:port" to the "ip:port" to dial instead. Only used
	// when Proxy is empty. Nil means ordinary DNS.
	Resolve map[string]string
	// InsecureSkipVerify turns certificate verification off. Only the
	// deliberately broken reference variant sets it.
	InsecureSkipVerify bool
}

// ClientOptionsFor reads the options out of a delegation request.
func ClientOptionsFor(req contract.DelegationRequest) ClientOptions {
	return ClientOptions{CAFile: req.Trust.CAFile, Proxy: req.Network.Proxy, Resolve: req.Network.Resolve}
}

// Key identifies options for caching clients.
func (o ClientOptions) Key() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s|%s|%v|", o.CAFile, o.Proxy, o.InsecureSkipVerify)
	if o.Proxy == "" {
		keys := make([]string, 0, len(o.Resolve))
		for k := range o.Resolve {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			fmt.Fprintf(&b, "%s=%s,", k, o.Resolve[k])
		}
	}
	return b.String()
}

// NewTransport builds a transport from o: roots are the system pool plus
// CAFile; requests go through Proxy, or are dialled through Resolve.
func NewTransport(o ClientOptions) (*http.Transport, error) {
	pool, err := x509.SystemCertPool()
	if err != nil || pool == nil {
		pool = x509.NewCertPool()
	}
	if o.CAFile != "" {
		pem, err := os.ReadFile(o.CAFile)
		if err != nil {
			return nil, fmt.Errorf("read ca file: %w", err)
		}
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("ca file %s holds no certificate", o.CAFile)
		}
	}
	t := &http.Transport{
		TLSClientConfig:       &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12, InsecureSkipVerify: o.InsecureSkipVerify}, //nolint:gosec // only the broken variant sets it
		ForceAttemptHTTP2:     false,
		MaxIdleConnsPerHost:   8,
		IdleConnTimeout:       30 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ResponseHeaderTimeout: 0,
	}
	if o.Proxy != "" {
		pu, err := url.Parse(o.Proxy)
		if err != nil {
			return nil, fmt.Errorf("proxy url: %w", err)
		}
		t.Proxy = http.ProxyURL(pu)
		return t, nil
	}
	resolve := o.Resolve
	var d net.Dialer
	t.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		if to, ok := resolve[addr]; ok {
			addr = to
		}
		return d.DialContext(ctx, network, addr)
	}
	return t, nil
}

// InsecureClone returns a copy of base with certificate verification off,
// or nil when base is not an *http.Transport.
func InsecureClone(base http.RoundTripper) *http.Transport {
	if base == nil {
		base = http.DefaultTransport
	}
	t, ok := base.(*http.Transport)
	if !ok {
		return nil
	}
	c := t.Clone()
	if c.TLSClientConfig == nil {
		c.TLSClientConfig = &tls.Config{}
	}
	c.TLSClientConfig.InsecureSkipVerify = true //nolint:gosec // the SkipTLSVerify break, on purpose
	return c
}

// Fence is a round tripper that sets fixed headers on every request and
// refuses hosts that are not on its allow list.
type Fence struct {
	// Base carries the requests. Nil means http.DefaultTransport.
	Base http.RoundTripper
	// Headers are set on every request (replacing what the request had).
	Headers map[string]string
	// Open disables the allow list (every host may be reached).
	Open bool

	mu      sync.Mutex
	allowed map[string]bool
}

// hostOf is the host (host:port as written) of rawURL, a URL or a bare
// host or "host:port", in lower case.
func hostOf(rawURL string) string {
	h := rawURL
	if u, err := url.Parse(rawURL); err == nil && u.Host != "" {
		h = u.Host
	}
	return strings.ToLower(h)
}

// Allow adds the host of rawURL (or a bare host name) to the allow list.
func (f *Fence) Allow(rawURL string) {
	h := hostOf(rawURL)
	f.mu.Lock()
	if f.allowed == nil {
		f.allowed = map[string]bool{}
	}
	f.allowed[h] = true
	f.allowed[hostOnly(h)] = true
	f.mu.Unlock()
}

func hostOnly(hostport string) string {
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		return h
	}
	return hostport
}

// Admits reports whether the fence lets a request to rawURL (a URL or a
// bare "host:port") through.
func (f *Fence) Admits(rawURL string) bool {
	if f.Open {
		return true
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.allowed[hostOf(rawURL)]
}

// ErrFenced is returned for a request to a host off the allow list.
var ErrFenced = errors.New("host is not a candidate's or a card's")

// RoundTrip implements http.RoundTripper.
func (f *Fence) RoundTrip(r *http.Request) (*http.Response, error) {
	if !f.Admits(r.URL.Host) {
		if r.Body != nil {
			r.Body.Close()
		}
		return nil, fmt.Errorf("%s: %w", r.URL.Host, ErrFenced)
	}
	if len(f.Headers) > 0 {
		r = r.Clone(r.Context())
		for k, v := range f.Headers {
			r.Header.Set(k, v)
		}
	}
	base := f.Base
	if base == nil {
		base = http.DefaultTransport
	}
	return base.RoundTrip(r)
}

// IsTLSVerifyError reports whether err is a certificate verification
// failure (unknown authority, wrong host name, invalid certificate).
func IsTLSVerifyError(err error) bool {
	if err == nil {
		return false
	}
	var cv *tls.CertificateVerificationError
	var he x509.HostnameError
	var ua x509.UnknownAuthorityError
	var ci x509.CertificateInvalidError
	if errors.As(err, &cv) || errors.As(err, &he) || errors.As(err, &ua) || errors.As(err, &ci) {
		return true
	}
	return strings.Contains(err.Error(), "x509:") || strings.Contains(err.Error(), "tls: failed to verify")
}

// ReadSSE reads server-sent events from r and calls fn with the data of each
// event (data lines joined by "\n"; "data:" with or without the space).
// It stops when r ends, fn returns false, or a line exceeds 4 MiB.
func ReadSSE(r io.Reader, fn func(data []byte) bool) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	var data bytes.Buffer
	have := false
	flush := func() bool {
		if !have {
			return true
		}
		b := append([]byte(nil), data.Bytes()...)
		data.Reset()
		have = false
		return fn(b)
	}
	for sc.Scan() {
		line := strings.TrimSuffix(sc.Text(), "\r")
		if line == "" {
			if !flush() {
				return nil
			}
			continue
		}
		if strings.HasPrefix(line, ":") {
			continue
		}
		field, value, _ := strings.Cut(line, ":")
		value = strings.TrimPrefix(value, " ")
		if field != "data" {
			continue
		}
		if have {
			data.WriteByte('\n')
		}
		data.WriteString(value)
		have = true
	}
	if err := sc.Err(); err != nil {
		return err
	}
	flush()
	return nil
}

// NewID returns a random id with the prefix.
func NewID(prefix string) string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return prefix + hex.EncodeToString(b[:])
}
