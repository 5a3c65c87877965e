package framework

import (
	"fmt"
	"net"
	"os"
	"strings"
	"testing"
)

// maxPortTries is how many times a component is started on fresh ports.
// freeAddrs can only say a port was free a moment ago: another process
// (another test's component, under -parallel) may bind it before ours does.
// The component then exits at once, and starting it again on other ports is
// the only remedy.
const maxPortTries = 3

// freeAddrs returns n distinct 127.0.0.1 addresses whose ports were free a
// moment ago. All n listeners are held until every port is chosen: closed
// one by one, the kernel may hand the same port out twice (etcd's client
// and peer URLs once got the same port, and etcd failed to bind).
func freeAddrs(t testing.TB, n int) []string {
	t.Helper()
	addrs := make([]string, 0, n)
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatalf("e2e: find a free port: %v", err)
		}
		defer l.Close()
		addrs = append(addrs, l.Addr().String())
	}
	return addrs
}

// portTaken reports whether p exited because a port it was to listen on
// was in use: its log says so (etcd and kube-apiserver both print the
// kernel's "bind: address already in use").
func portTaken(p *process) bool {
	if done, _ := p.exited(); !done {
		return false
	}
	return strings.Contains(p.tail(tailLines), "address already in use")
}

// setAsideLog renames a failed attempt's log so the next attempt starts a
// log of its own (portTaken must not read the last attempt's words), and
// keeps it for whoever reads the test's directory.
func setAsideLog(t testing.TB, p *process, attempt int) {
	t.Helper()
	old := fmt.Sprintf("%s.attempt%d", p.logPath, attempt)
	if err := os.Rename(p.logPath, old); err != nil {
		t.Fatalf("e2e: %v", err)
	}
	t.Logf("e2e: %s could not bind its port (another process took it); starting it again on other ports; log of the attempt: %s", p.name, old)
}
