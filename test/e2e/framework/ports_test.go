package framework

import (
	"os"
	"path/filepath"
	"testing"
)

func TestFreeAddrsDistinct(t *testing.T) {
	addrs := freeAddrs(t, 64)
	seen := map[string]bool{}
	for _, a := range addrs {
		if seen[a] {
			t.Fatalf("freeAddrs gave %s twice: %v", a, addrs)
		}
		seen[a] = true
	}
	if len(seen) != 64 {
		t.Fatalf("freeAddrs gave %d addresses, want 64", len(seen))
	}
}

// TestPortTaken runs a stand-in for a component that cannot bind (and one
// that fails otherwise), as etcd and kube-apiserver print it.
func TestPortTaken(t *testing.T) {
	sh, err := os.Stat("/bin/sh")
	if err != nil || sh.IsDir() {
		t.Skip("no /bin/sh")
	}
	dir := t.TempDir()
	run := func(name, msg string) *process {
		p := startProcess(t, name, filepath.Join(dir, name+".log"), "/bin/sh", "-c", "echo '"+msg+"'; exit 1")
		<-p.done
		return p
	}
	taken := run("taken", `{"level":"fatal","msg":"discovery failed","error":"listen tcp 127.0.0.1:38707: bind: address already in use"}`)
	if !portTaken(taken) {
		t.Errorf("portTaken = false for a log saying the address is in use:\n%s", taken.tail(5))
	}
	other := run("other", "E1129 error: unknown flag --nope")
	if portTaken(other) {
		t.Errorf("portTaken = true for a component that failed for another reason")
	}
	setAsideLog(t, taken, 1)
	if _, err := os.Stat(filepath.Join(dir, "taken.log.attempt1")); err != nil {
		t.Errorf("the attempt's log was not kept: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "taken.log")); !os.IsNotExist(err) {
		t.Errorf("the next attempt's log is not new: %v", err)
	}
}
