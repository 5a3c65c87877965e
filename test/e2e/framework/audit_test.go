package framework

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadAuditLog(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "audit.log")
	if events, err := ReadAuditLog(path); err != nil || events != nil {
		t.Fatalf("missing log: %v, %v; want no events, no error", events, err)
	}
	lines := `{"kind":"Event","stage":"ResponseComplete","verb":"list","requestURI":"/api/v1/pods?limit=100","user":{"username":"reader"},"objectRef":{"resource":"pods","apiVersion":"v1"},"userAgent":"kubectl-schedcache/v0.1.0"}
{"kind":"Event","stage":"ResponseComplete","verb":"get","requestURI":"/version","user":{"username":"reader"}}
{"kind":"Event","stage":"ResponseComplete","verb":"create","requestURI":"/api/v1/namespaces/x/pods/p/binding","user":{"username":"admin"},"objectRef":{"resource":"pods","namespace":"x","name":"p","subresource":"binding"}}
{"kind":"Event","verb":"li`
	if err := os.WriteFile(path, []byte(lines), 0o600); err != nil {
		t.Fatal(err)
	}
	events, err := ReadAuditLog(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(events) != 3 {
		t.Fatalf("%d events, want 3 (the unterminated last line is skipped)", len(events))
	}
	if e := events[0]; e.ObjectRef == nil || e.ObjectRef.Resource != "pods" || e.UserAgent != "kubectl-schedcache/v0.1.0" || !strings.Contains(e.RequestURI, "limit=100") {
		t.Errorf("event 0: %+v", e)
	}
	if events[1].ObjectRef != nil {
		t.Errorf("non-resource event has objectRef %+v", events[1].ObjectRef)
	}
	if got := events[2].String(); got != "admin create pods/binding /api/v1/namespaces/x/pods/p/binding" {
		t.Errorf("String() = %q", got)
	}
	want := "      1  admin create pods/binding\n      1  reader get (non-resource) /version\n      1  reader list pods\n"
	if got := SummarizeAudit(events); got != want {
		t.Errorf("SummarizeAudit:\n%s\nwant:\n%s", got, want)
	}

	if err := os.WriteFile(path, []byte("not json\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadAuditLog(path); err == nil || !strings.Contains(err.Error(), "line 1") {
		t.Errorf("malformed line: got %v, want an error naming line 1", err)
	}
}
