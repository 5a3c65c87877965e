package cmd

import (
	"strings"
	"testing"
)

// TestParsePodRef: kubectl's TYPE/NAME for pods is NAME in the namespace;
// another type is an error saying what to do; NAMESPACE/NAME stays.
func TestParsePodRef(t *testing.T) {
	for _, tc := range []struct{ ref, ns, name, err string }{
		{"web", "shop", "web", ""},
		{"apps/web", "apps", "web", ""},
		{"pod/web", "shop", "web", ""},
		{"pods/web", "shop", "web", ""},
		{"po/web", "shop", "web", ""},
		{"Pod/web", "shop", "web", ""},
		{"pods.v1/web", "shop", "web", ""},
		{"pod/a/b", "", "", "want pod/NAME"},
		{"deployment/web", "", "", "deployment/web is not a pod (NAME, NAMESPACE/NAME or pod/NAME): name its pods, or give its manifest with --pod-file"},
		{"deploy/web", "", "", "is not a pod"},
		{"sts/db", "", "", "is not a pod"},
		{"deployment.apps/web", "", "", "is not a pod"},
	} {
		ns, name, err := parsePodRef(tc.ref, "shop")
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: error %v, want %q", tc.ref, err, tc.err)
		case tc.err == "" && (err != nil || ns != tc.ns || name != tc.name):
			t.Errorf("%s: %s/%s %v, want %s/%s", tc.ref, ns, name, err, tc.ns, tc.name)
		}
	}
}

// TestWhyPodTypeName: why and requested --pod accept pod/NAME.
func TestWhyPodTypeName(t *testing.T) {
	noKubeconfig(t)
	want := run(t, "", "why", "-f", example, "-n", "shop", "fraud-scorer-6c7d8b9f5-p5lzn")
	if want.code == 2 {
		t.Fatalf("why fraud-scorer-6c7d8b9f5-p5lzn: %s", want.stderr)
	}
	for _, ref := range []string{"pod/fraud-scorer-6c7d8b9f5-p5lzn", "pods/fraud-scorer-6c7d8b9f5-p5lzn", "po/fraud-scorer-6c7d8b9f5-p5lzn"} {
		got := run(t, "", "why", "-f", example, "-n", "shop", ref)
		if got.stdout != want.stdout || got.code != want.code {
			t.Errorf("why %s: exit %d\n%s%s\nwant exit %d\n%s", ref, got.code, got.stdout, got.stderr, want.code, want.stdout)
		}
	}
	r := run(t, "", "why", "-f", example, "-n", "shop", "deployment/fraud-scorer")
	if r.code != 2 || !strings.Contains(r.stderr, "deployment/fraud-scorer is not a pod") {
		t.Errorf("why deployment/fraud-scorer: exit %d, %s", r.code, r.stderr)
	}
	r = run(t, "", "requested", "-f", example, "-n", "shop", "--pod", "pod/fraud-scorer-6c7d8b9f5-p5lzn")
	if r.code == 2 {
		t.Errorf("requested --pod pod/fraud-scorer-6c7d8b9f5-p5lzn: exit %d, %s", r.code, r.stderr)
	}
}

// TestWhySelector: -l chooses among the pending pods (kubectl's -l: the
// pods listed); none matching is kubectl's "No resources found", exit 0;
// -l with POD arguments is a usage error.
func TestWhySelector(t *testing.T) {
	noKubeconfig(t)
	all := run(t, "", "why", "-f", example, "-A")
	one := run(t, "", "why", "-f", example, "-A", "-l", "app=fraud-scorer")
	if one.code != 1 || !strings.Contains(one.stdout, "shop/fraud-scorer-6c7d8b9f5-p5lzn") || strings.Count(one.stdout, "\n") != 2 ||
		!strings.Contains(one.stderr, "1 pod: 1 unschedulable") {
		t.Errorf("why -A -l app=fraud-scorer: exit %d\n%s%s\n(all: %s)", one.code, one.stdout, one.stderr, all.stdout)
	}
	none := run(t, "", "why", "-f", example, "-n", "shop", "-l", "app=nope")
	if none.code != 0 || none.stdout != "" || !strings.HasSuffix(none.stderr, "No resources found in shop namespace.\n") {
		t.Errorf("why -n shop -l app=nope: exit %d, %q %q", none.code, none.stdout, none.stderr)
	}
	if r := run(t, "", "why", "-f", example, "-n", "shop", "-l", "a=b", "fraud-scorer-6c7d8b9f5-p5lzn"); r.code != 2 || !strings.Contains(r.stderr, "-l/--selector chooses among the pending pods") {
		t.Errorf("why -l with POD: exit %d, %q", r.code, r.stderr)
	}
}
