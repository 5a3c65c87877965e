package framework

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
)

// AuditEvent holds the audit.k8s.io/v1 Event fields (level Metadata) that
// tests look at.
type AuditEvent struct {
	Stage      string `json:"stage"`
	Verb       string `json:"verb"`
	RequestURI string `json:"requestURI"`
	UserAgent  string `json:"userAgent"`
	User       struct {
		Username string `json:"username"`
	} `json:"user"`
	// ObjectRef is nil for non-resource requests (/api, /version, ...).
	ObjectRef *AuditObjectRef `json:"objectRef"`
	// ResponseStatus is nil for events logged before the response.
	ResponseStatus *struct {
		Code int `json:"code"`
	} `json:"responseStatus"`
}

// AuditObjectRef is the resource an audited request was about.
type AuditObjectRef struct {
	Resource    string `json:"resource"`
	Subresource string `json:"subresource"`
	Namespace   string `json:"namespace"`
	Name        string `json:"name"`
	APIGroup    string `json:"apiGroup"`
}

// String renders the event compactly for failure messages, e.g.
// `reader list pods /api/v1/pods?limit=500`.
func (e AuditEvent) String() string {
	what := "(non-resource)"
	if e.ObjectRef != nil {
		what = e.ObjectRef.Resource
		if e.ObjectRef.APIGroup != "" {
			what += "." + e.ObjectRef.APIGroup
		}
		if e.ObjectRef.Subresource != "" {
			what += "/" + e.ObjectRef.Subresource
		}
	}
	return fmt.Sprintf("%s %s %s %s", e.User.Username, e.Verb, what, e.RequestURI)
}

// ReadAuditLog parses the apiserver's JSON audit log (Options.AuditLog), one
// event per line. A last line without its line break is being written by
// the apiserver right now and is left out; any other malformed line is an
// error. A log that does not exist yet holds no events.
func ReadAuditLog(path string) ([]AuditEvent, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if i := strings.LastIndexByte(string(data), '\n'); i >= 0 {
		data = data[:i+1]
	} else {
		data = nil
	}
	var events []AuditEvent
	sc := bufio.NewScanner(strings.NewReader(string(data)))
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for n := 1; sc.Scan(); n++ {
		if len(strings.TrimSpace(sc.Text())) == 0 {
			continue
		}
		var e AuditEvent
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			return nil, fmt.Errorf("audit log %s line %d: %w", path, n, err)
		}
		if e.Verb == "" || e.User.Username == "" {
			return nil, fmt.Errorf("audit log %s line %d has no verb or user.username: %s", path, n, sc.Text())
		}
		events = append(events, e)
	}
	return events, sc.Err()
}

// SummarizeAudit counts events by "user verb resource" (resource
// "(non-resource) PATH" for non-resource requests), one line per key in
// sorted order, for failure messages.
func SummarizeAudit(events []AuditEvent) string {
	counts := map[string]int{}
	for _, e := range events {
		key := e.User.Username + " " + e.Verb + " "
		if e.ObjectRef == nil {
			path, _, _ := strings.Cut(e.RequestURI, "?")
			key += "(non-resource) " + path
		} else {
			key += e.ObjectRef.Resource
			if e.ObjectRef.APIGroup != "" {
				key += "." + e.ObjectRef.APIGroup
			}
			if e.ObjectRef.Subresource != "" {
				key += "/" + e.ObjectRef.Subresource
			}
		}
		counts[key]++
	}
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "  %5d  %s\n", counts[k], k)
	}
	return b.String()
}
