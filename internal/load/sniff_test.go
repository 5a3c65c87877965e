package load

import (
	"strings"
	"testing"
)

// TestSniff: what sniff recognises from an input's first bytes, and what
// it leaves to the reader's own messages.
func TestSniff(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"kubectl get pods", "NAME                     READY   STATUS    RESTARTS   AGE\nweb-7d4b9-abcde          1/1     Running   0          5d\n", "looks like a table printed by kubectl get"},
		{"kubectl get pods -A -o wide", "NAMESPACE   NAME   READY   STATUS    RESTARTS   AGE   IP         NODE   NOMINATED NODE   READINESS GATES\n", "looks like a table printed by kubectl get"},
		{"kubectl get nodes, CRLF", "NAME    STATUS   ROLES           AGE   VERSION\r\nn1      Ready    control-plane   1d    v1.36.3\r\n", "looks like a table printed by kubectl get"},
		{"HTML", "\n<!DOCTYPE html>\n<html lang=\"en\">", "an HTML page, not YAML or JSON"},
		{"HTML without doctype", "<html><body>", "an HTML page"},
		{"own dump json", "{\n    \"kind\": \"CacheDump\",\n    \"apiVersion\": \"schedcache.kubectl.io/v1alpha1\",\n", "this tool's own CacheDump output (schedcache.kubectl.io/v1alpha1)"},
		{"own snapshot yaml", "apiVersion: schedcache.kubectl.io/v1alpha1\nkind: Snapshot\nnodes: []\n", "this tool's own Snapshot output"},
		{"own json, compact", `{"kind":"RequestedReport","apiVersion":"schedcache.kubectl.io/v1alpha1","nodes":[]}`, "this tool's own RequestedReport output"},
		{"own yaml, a nested kind first", "apiVersion: schedcache.kubectl.io/v1alpha1\nitems:\n- kind: Pod\nkind: SchedulingReport\n", "this tool's own SchedulingReport output"},
		{"a pod", "apiVersion: v1\nkind: Pod\nmetadata: {name: NAME}\n", ""},
		{"a list of pods", "{\"apiVersion\": \"v1\", \"kind\": \"List\", \"items\": []}", ""},
		{"prose", "NAME is the pod's name\n", ""},
		{"one word", "NAME\n", ""},
	} {
		got := sniff([]byte(tc.in))
		if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestReadFilesSniffed: a named input sniff recognises is an error naming
// it; one found in a directory is skipped with a warning.
func TestReadFilesSniffed(t *testing.T) {
	table := "NAME   READY   STATUS    RESTARTS   AGE\nweb    1/1     Running   0          5d\n"
	_, err := ReadFiles(FileOptions{Filenames: []string{"-"}, Stdin: strings.NewReader(table)}, nil)
	if err == nil || err.Error() != "stdin: looks like a table printed by kubectl get, not YAML or JSON: use kubectl get -o yaml (or -o json)" {
		t.Errorf("stdin table: %v", err)
	}
}
