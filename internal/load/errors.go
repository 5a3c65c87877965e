package load

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"regexp"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
)

// ErrorKind classifies a loading failure, so that callers can pick an exit code
// or a hint without parsing messages.
type ErrorKind int

const (
	// Other is any failure not covered by the kinds below, e.g. an unexpected
	// API server status such as 500 or an expired continue token (410).
	Other ErrorKind = iota
	// Forbidden means the API server refused the request (HTTP 403): the user
	// lacks RBAC permission to list nodes or pods.
	Forbidden
	// Unauthorized means the API server rejected the credentials (HTTP 401).
	Unauthorized
	// Unreachable means no usable answer came back from the API server:
	// connection refused or reset, DNS failure, TLS failure, or a timeout
	// (client timeout or context deadline).
	Unreachable
	// InvalidInput means the files given to ReadFiles could not be read or
	// parsed, or held no nodes or pods.
	InvalidInput
)

// String returns the kind's name, e.g. "Forbidden".
func (k ErrorKind) String() string {
	switch k {
	case Forbidden:
		return "Forbidden"
	case Unauthorized:
		return "Unauthorized"
	case Unreachable:
		return "Unreachable"
	case InvalidInput:
		return "InvalidInput"
	default:
		return "Other"
	}
}

// Error is the error type returned by List and ReadFiles for every failure
// except context cancellation (which is returned wrapping context.Canceled).
// Unwrap gives the underlying error, so apierrors.IsForbidden, errors.Is and
// errors.As keep working on it.
type Error struct {
	// Kind classifies the failure.
	Kind ErrorKind
	// Msg is a one-line, lower-case description meant for users.
	Msg string
	// Hint is optional advice printed on the lines after Msg, e.g. the RBAC
	// rule that would allow the request. Empty for most kinds.
	Hint string
	// Err is the underlying error (an API status error, a *url.Error, a
	// decoding error, ...). It may be nil.
	Err error
}

// Error returns Msg, followed by a newline and Hint when Hint is set.
func (e *Error) Error() string {
	if e.Hint == "" {
		return e.Msg
	}
	return e.Msg + "\n" + e.Hint
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// KindOf returns the Kind of the first *Error in err's chain, or Other when
// there is none (including for nil and for context cancellation).
func KindOf(err error) ErrorKind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return Other
}

// ClusterRoleName is the name of the ClusterRole the README's RBAC section
// gives, which the Forbidden errors of listing and watching name.
const ClusterRoleName = "schedcache-reader"

// rbacHint is the first rule of that ClusterRole, the smallest that lets
// kubectl-schedcache load a cluster: get and list nodes and pods at the
// cluster scope, and watch them (--watch).
const rbacHint = `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: ` + ClusterRoleName + `
rules:
- apiGroups: [""]
  resources: ["nodes", "pods"]
  verbs: ["get", "list", "watch"]`

// forbiddenUser extracts the user from an authorizer message such as
// `pods is forbidden: User "jane" cannot list resource "pods" ...`.
var forbiddenUser = regexp.MustCompile(`User "((?:[^"\\]|\\.)*)"`)

// apiError translates an error from listing resource (e.g. "pods", at the
// cluster scope) on the API server at host into an *Error with a one-line
// message. Cancellation of ctx is returned as is, wrapped with the resource.
func apiError(ctx context.Context, err error, verb, resource, host string) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, context.Canceled) || ctx.Err() == context.Canceled {
		return fmt.Errorf("%s %s: %w", verb, resource, context.Canceled)
	}
	switch {
	case apierrors.IsForbidden(err):
		msg := fmt.Sprintf("cannot %s %s at the cluster scope: forbidden", verb, resource)
		if m := forbiddenUser.FindStringSubmatch(err.Error()); m != nil {
			msg += fmt.Sprintf(" for user %q", m[1])
		}
		if verb == "watch" {
			msg += "; --watch needs the verb watch on nodes and pods, besides get and list, as the ClusterRole " + ClusterRoleName + " grants:"
		} else {
			msg += "; kubectl-schedcache needs get/list on nodes and pods:"
		}
		return &Error{Kind: Forbidden, Msg: msg, Hint: rbacHint, Err: err}
	case apierrors.IsUnauthorized(err) && strings.HasPrefix(strings.ToLower(host), "http://"):
		// client-go sends no credentials over plain http, as kubectl.
		return &Error{
			Kind: Unauthorized,
			Msg:  fmt.Sprintf("the API server at %s asks for credentials (Unauthorized), and none are sent over plain http: use its https:// address", oneLine(host)),
			Err:  err,
		}
	case apierrors.IsUnauthorized(err):
		return &Error{
			Kind: Unauthorized,
			Msg:  "the server rejected the credentials (Unauthorized): check --token / --kubeconfig / --context",
			Err:  err,
		}
	case isTimeout(err):
		if host == "" {
			host = "(unknown host)"
		}
		return &Error{
			Kind: Unreachable,
			Msg:  fmt.Sprintf("cannot reach the API server at %s in time: %s", oneLine(host), timeoutCause(err)),
			Err:  err,
		}
	case isUnreachable(err):
		if host == "" {
			host = "(unknown host)"
		}
		return &Error{
			Kind: Unreachable,
			Msg:  fmt.Sprintf("cannot reach the API server at %s: %s", host, oneLine(transportCause(err))),
			Err:  err,
		}
	case apierrors.IsResourceExpired(err) || apierrors.IsGone(err):
		return &Error{
			Kind: Other,
			Msg:  fmt.Sprintf("cannot %s %s: the list expired on the server before it was read to the end (410 Gone); retry, or raise the page size", verb, resource),
			Err:  err,
		}
	}
	return &Error{Kind: Other, Msg: fmt.Sprintf("cannot %s %s: %s", verb, resource, oneLine(err.Error())), Err: err}
}

// RequestError is the error of a failed request to verb ("list", "watch")
// resource (e.g. "pods", at the cluster scope) on the API server at host,
// worded as a listing's: an *Error of kind Forbidden (naming the verb and
// the ClusterRole that grants it), Unauthorized, Unreachable or Other;
// cancellation of ctx is returned wrapping context.Canceled.
func RequestError(ctx context.Context, err error, verb, resource, host string) error {
	return apiError(ctx, err, verb, resource, host)
}

// Unreached returns err as an *Error of kind Unreachable, with the
// message a listing gives, when err means that the API server at host
// could not be reached or did not answer in time (a request other than a
// listing: a pod's log, a GET); else nil. A cancellation is not one.
func Unreached(err error, host string) error {
	if err == nil || errors.Is(err, context.Canceled) {
		return nil
	}
	var apiStatus apierrors.APIStatus
	if errors.As(err, &apiStatus) {
		return nil // the server answered
	}
	if !isTimeout(err) && !isUnreachable(err) {
		return nil
	}
	return apiError(context.Background(), err, "get", "", host)
}

// isTimeout reports whether err is a timeout of a request that reached the
// server: the response-header timeout, or --request-timeout (the client's
// Timeout) while waiting for the answer or reading it. A connection that
// could not be made is not one.
func isTimeout(err error) bool {
	var hte *HeaderTimeoutError
	if errors.As(err, &hte) {
		return true
	}
	var opErr *net.OpError
	if errors.As(err, &opErr) && opErr.Op == "dial" {
		return false
	}
	var dwe *deadlineWaitingError
	if errors.As(err, &dwe) {
		return true
	}
	msg := err.Error()
	return strings.Contains(msg, "Client.Timeout") || strings.Contains(msg, "timeout awaiting response headers")
}

// timeoutCause says where a request stopped and which bound ended it:
// "it accepted the connection, then sent no answer within 15s (raise it
// with --request-timeout)".
func timeoutCause(err error) string {
	var hte *HeaderTimeoutError
	if errors.As(err, &hte) {
		within := fmt.Sprintf("%s (raise it with --request-timeout)", hte.After)
		if hte.Flag {
			within = fmt.Sprintf("--request-timeout (%s)", hte.After)
		}
		switch hte.Stage {
		case stageConnect:
			return "no connection within " + within
		case stageHandshake:
			return "it accepted the connection, then did not complete the TLS handshake within " + within
		}
		return "it accepted the connection, then sent no answer within " + within
	}
	if strings.Contains(err.Error(), "awaiting headers") {
		return "it accepted the connection, then sent no answer within --request-timeout"
	}
	return "it accepted the connection, then did not send the whole answer within --request-timeout"
}

// isUnreachable reports whether err means the API server gave no usable
// answer: a network or TLS failure, or a timeout on the client side.
func isUnreachable(err error) bool {
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return true
	}
	var apiStatus apierrors.APIStatus
	if errors.As(err, &apiStatus) {
		return false // the server answered
	}
	var urlErr *url.Error
	var netErr net.Error
	return errors.As(err, &urlErr) || errors.As(err, &netErr)
}

// transportCause drops the `Get "https://...":` prefix that *url.Error adds,
// keeping what actually failed (e.g. "dial tcp 127.0.0.1:6443: connect:
// connection refused").
func transportCause(err error) string {
	var urlErr *url.Error
	if errors.As(err, &urlErr) && urlErr.Err != nil {
		return urlErr.Err.Error()
	}
	return err.Error()
}

// oneLine joins a possibly multi-line message into one line.
func oneLine(s string) string {
	return lineBreaks.Replace(strings.TrimSpace(s))
}

var lineBreaks = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ")
