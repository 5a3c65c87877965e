package framework

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
)

// The users in the apiserver's token file.
const (
	// UserAdmin is in system:masters; the harness sets everything up as admin.
	UserAdmin = "admin"
	// UserReader may get/list/watch nodes and pods, nothing else.
	UserReader = "reader"
	// UserNoPods may get/list/watch nodes but nothing on pods, for the
	// Forbidden paths.
	UserNoPods = "nopods"
	// UserDecider may get/list/watch nodes, pods and every kind the
	// scheduler's plugins read (load.SchedulingKinds): the rights of the
	// ClusterRole of docs/rbac.md, for why, requested --pod and simulate.
	UserDecider = "decider"
)

type user struct {
	name   string
	groups []string
}

var users = []user{
	{name: UserAdmin, groups: []string{"system:masters"}},
	{name: UserReader},
	{name: UserNoPods},
	{name: UserDecider},
}

// startTimeout bounds the whole Start; the apiserver is usually ready in
// seconds, but a loaded 2-core CI machine can be much slower.
const startTimeout = 2 * time.Minute

// Options configure Start.
type Options struct {
	// AuditLog turns on the apiserver's audit log (every request at Metadata
	// level, one JSON object per line) at Cluster.AuditLogPath.
	AuditLog bool
	// ExtraAPIServerFlags are appended after the harness's own flags; since
	// the last value of a flag wins, they can also override those.
	ExtraAPIServerFlags []string
}

// Cluster is a running etcd and kube-apiserver on 127.0.0.1.
type Cluster struct {
	// Binaries are the executables the cluster (and its scheduler) run.
	Binaries Binaries
	// Dir holds logs, keys, certificates and kubeconfig files; it is removed
	// after the test.
	Dir string
	// Server is the apiserver URL, https://127.0.0.1:PORT.
	Server string
	// CAFile is the apiserver's self-signed serving certificate bundle.
	CAFile string
	// AuditLogPath is the audit log, or "" when Options.AuditLog is false.
	AuditLogPath string

	t             testing.TB
	etcd          *process
	apiserver     *process
	apiserverArgs []string
	tokens        map[string]string
	kubeconfigs   map[string]string
	admin         kubernetes.Interface
}

// Start runs etcd and kube-apiserver for the test and stops them in
// t.Cleanup. It fails the test (or skips it under -short) if the binaries
// are missing. It returns once /readyz answers and the RBAC rules of the
// reader and nopods users are in force.
func Start(t *testing.T, opts Options) *Cluster {
	t.Helper()
	bins := LocateBinaries(t)
	began := time.Now()
	ctx, cancel := context.WithTimeout(t.Context(), startTimeout)
	defer cancel()

	c := &Cluster{Binaries: bins, Dir: t.TempDir(), t: t, tokens: map[string]string{}, kubeconfigs: map[string]string{}}
	etcdURL, etcd := startEtcd(ctx, t, bins.Etcd, c.Dir)
	c.etcd = etcd
	c.startAPIServer(ctx, etcdURL, opts)
	if err := c.writeKubeconfigs(); err != nil {
		t.Fatalf("e2e: %v", err)
	}
	admin, err := kubernetes.NewForConfig(c.RESTConfig(UserAdmin))
	if err != nil {
		t.Fatalf("e2e: admin client: %v", err)
	}
	c.admin = admin
	if err := c.setupRBAC(ctx); err != nil {
		t.Fatalf("e2e: %v", err)
	}
	t.Logf("e2e: cluster ready at %s in %v", c.Server, time.Since(began).Round(time.Millisecond))
	return c
}

func (c *Cluster) startAPIServer(ctx context.Context, etcdURL string, opts Options) {
	t := c.t
	t.Helper()
	for _, u := range users {
		tok, err := randomToken()
		if err != nil {
			t.Fatalf("e2e: token: %v", err)
		}
		c.tokens[u.name] = tok
	}
	saKey := filepath.Join(c.Dir, "sa.key")
	tokenFile := filepath.Join(c.Dir, "tokens.csv")
	certDir := filepath.Join(c.Dir, "apiserver-certs")
	if err := writeServiceAccountKey(saKey); err != nil {
		t.Fatalf("e2e: service-account key: %v", err)
	}
	if err := writeTokenFile(tokenFile, users, c.tokens); err != nil {
		t.Fatalf("e2e: token file: %v", err)
	}
	// The apiserver writes a self-signed pair here; apiserver.crt holds the
	// serving certificate followed by the CA that signed it.
	c.CAFile = filepath.Join(certDir, "apiserver.crt")

	args := []string{
		"--bind-address=127.0.0.1",
		"--advertise-address=127.0.0.1",
		"--cert-dir=" + certDir,
		"--etcd-servers=" + etcdURL,
		"--service-cluster-ip-range=10.0.0.0/24",
		"--service-account-issuer=https://kubernetes.default.svc",
		"--service-account-key-file=" + saKey,
		"--service-account-signing-key-file=" + saKey,
		"--token-auth-file=" + tokenFile,
		"--authorization-mode=RBAC",
		// No kube-controller-manager or kubelet runs: without ServiceAccount
		// disabled pods cannot be created (no "default" service account), and
		// TaintNodesByCondition would taint every node not-ready forever, so
		// the real scheduler would place nothing.
		"--disable-admission-plugins=ServiceAccount,TaintNodesByCondition",
		// Nothing else serves the "kubernetes" Service's endpoints.
		"--endpoint-reconciler-type=none",
		"--profiling=false",
	}
	if opts.AuditLog {
		policy := filepath.Join(c.Dir, "audit-policy.yaml")
		if err := os.WriteFile(policy, []byte(auditPolicy), 0o600); err != nil {
			t.Fatalf("e2e: audit policy: %v", err)
		}
		c.AuditLogPath = filepath.Join(c.Dir, "audit.log")
		args = append(args, "--audit-policy-file="+policy, "--audit-log-path="+c.AuditLogPath, "--audit-log-format=json")
	}
	args = append(args, opts.ExtraAPIServerFlags...)
	// A port taken between freeAddrs and the bind: start again on another.
	for attempt := 1; ; attempt++ {
		addr := freeAddrs(t, 1)[0]
		c.Server = "https://" + addr
		c.apiserverArgs = append(slices.Clip(args), "--secure-port="+addr[strings.LastIndexByte(addr, ':')+1:])
		c.apiserver = startProcess(t, "kube-apiserver", filepath.Join(c.Dir, "kube-apiserver.log"), c.Binaries.KubeAPIServer, c.apiserverArgs...)
		err := c.waitReady(ctx)
		if err == nil {
			return
		}
		if attempt == maxPortTries || !portTaken(c.apiserver) {
			t.Fatalf("e2e: %v", err)
		}
		setAsideLog(t, c.apiserver, attempt)
	}
}

// StopAPIServer stops kube-apiserver (SIGTERM, as an upgrade or a crash
// loop's restart does; SIGKILL after stopGrace) and returns once it has
// exited; etcd keeps running. RestartAPIServer starts it again.
func (c *Cluster) StopAPIServer(t testing.TB) {
	t.Helper()
	c.apiserver.stop(t)
	t.Logf("e2e: kube-apiserver stopped")
}

// RestartAPIServer starts kube-apiserver again with the same flags, port,
// certificates and tokens, and returns once /readyz answers.
func (c *Cluster) RestartAPIServer(t testing.TB) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	c.apiserver = startProcess(t, "kube-apiserver", filepath.Join(c.Dir, "kube-apiserver.log"), c.Binaries.KubeAPIServer, c.apiserverArgs...)
	if err := c.waitReady(ctx); err != nil {
		t.Fatalf("e2e: %v", err)
	}
}

// waitReady polls /readyz as admin. The CA file only exists once the
// apiserver has generated its certificate, so it is (re)read on each try.
func (c *Cluster) waitReady(ctx context.Context) error {
	procs := []*process{c.etcd, c.apiserver}
	return poll(ctx, "kube-apiserver /readyz", 100*time.Millisecond, procs, func(ctx context.Context) (bool, error) {
		pemData, err := os.ReadFile(c.CAFile)
		if err != nil {
			return false, err
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pemData) {
			return false, fmt.Errorf("no certificate in %s yet", c.CAFile)
		}
		hc := &http.Client{
			Timeout:   5 * time.Second,
			Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}},
		}
		defer hc.CloseIdleConnections()
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.Server+"/readyz", nil)
		if err != nil {
			return false, err
		}
		req.Header.Set("Authorization", "Bearer "+c.tokens[UserAdmin])
		req.Header.Set("User-Agent", "schedcache-e2e/readyz")
		resp, err := hc.Do(req)
		if err != nil {
			return false, err
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return false, fmt.Errorf("/readyz: %s", resp.Status)
		}
		return true, nil
	})
}

func (c *Cluster) writeKubeconfigs() error {
	for _, u := range users {
		path := filepath.Join(c.Dir, "kubeconfig-"+u.name+".yaml")
		if err := writeKubeconfig(path, c.Server, c.CAFile, u.name, c.tokens[u.name]); err != nil {
			return fmt.Errorf("kubeconfig for %s: %w", u.name, err)
		}
		c.kubeconfigs[u.name] = path
	}
	return nil
}

// Kubeconfig returns the path of the kubeconfig file of user (UserAdmin,
// UserReader or UserNoPods). Call it from the test goroutine.
func (c *Cluster) Kubeconfig(user string) string {
	path, ok := c.kubeconfigs[user]
	if !ok {
		c.t.Fatalf("e2e: no kubeconfig for unknown user %q", user)
	}
	return path
}

// Token returns the bearer token of user.
func (c *Cluster) Token(user string) string {
	tok, ok := c.tokens[user]
	if !ok {
		c.t.Fatalf("e2e: no token for unknown user %q", user)
	}
	return tok
}

// RESTConfig returns a new client config for user, with client-side rate
// limits raised (see LoaderConfig) and protobuf for built-in types.
func (c *Cluster) RESTConfig(user string) *rest.Config {
	return LoaderConfig(&rest.Config{
		Host:            c.Server,
		BearerToken:     c.Token(user),
		TLSClientConfig: rest.TLSClientConfig{CAFile: c.CAFile},
		UserAgent:       "schedcache-e2e/" + user,
	})
}

// Client returns a new clientset acting as user.
func (c *Cluster) Client(user string) kubernetes.Interface {
	cs, err := kubernetes.NewForConfig(c.RESTConfig(user))
	if err != nil {
		c.t.Fatalf("e2e: client for %s: %v", user, err)
	}
	return cs
}

// AdminClient returns the cluster's system:masters clientset.
func (c *Cluster) AdminClient() kubernetes.Interface { return c.admin }
