package cmd

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/schedcache/kubectl-schedcache/internal/compare"
	"github.com/schedcache/kubectl-schedcache/internal/load"
	"github.com/schedcache/kubectl-schedcache/internal/load/loadtest"
	"github.com/schedcache/kubectl-schedcache/internal/model"
	"github.com/schedcache/kubectl-schedcache/internal/pipeline"
	"github.com/schedcache/kubectl-schedcache/internal/schedlog"
	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// BenchmarkCompare5kNodes150kPods times "compare --log dump.log -f
// cluster.json" on hack/gen-cluster's 5,000 nodes and 150,000 pods, where
// dump.log is the cache dump kube-scheduler v1.36 would log for that
// cluster (rendered from our own model with schedlog.Write), against the
// baseline of loading the same cluster (read the file, build the cache:
// what every command does first), in alternating runs of one process. It
// reports both times and their ratio, "x-load".
func BenchmarkCompare5kNodes150kPods(b *testing.B) {
	dir := b.TempDir()
	path := loadtest.GenCluster(b, dir, loadtest.LargeNodes, loadtest.LargePods)
	logPath := writeSchedulerLog(b, path, filepath.Join(dir, "kube-scheduler.log"))
	var loadTime, compareTime time.Duration
	for b.Loop() {
		began := time.Now()
		if err := loadOnce(path); err != nil {
			b.Fatalf("load: %v", err)
		}
		loadTime += time.Since(began)

		began = time.Now()
		var errOut bytes.Buffer
		root := NewCmdSchedCache(genericiooptions.IOStreams{In: bytes.NewReader(nil), Out: io.Discard, ErrOut: &errOut})
		root.SetArgs([]string{"compare", "--log", logPath, "-f", path})
		if err := root.Execute(); err != nil {
			b.Fatalf("compare: %v\n%s", err, errOut.String())
		}
		compareTime += time.Since(began)
	}
	n := float64(b.N)
	b.ReportMetric(loadTime.Seconds()/n, "load-s/op")
	b.ReportMetric(compareTime.Seconds()/n, "compare-s/op")
	b.ReportMetric(compareTime.Seconds()/loadTime.Seconds(), "x-load")
}

// loadOnce reads the cluster and builds the cache, as every command does first.
func loadOnce(path string) error {
	in := NewInputFlags()
	in.Filenames = []string{path}
	m, err := in.LoadModel(context.Background(), genericiooptions.IOStreams{In: bytes.NewReader(nil), Out: io.Discard, ErrOut: io.Discard}, cache.Options{}, new(pipeline.Notes))
	if err == nil && len(m.Nodes) != loadtest.LargeNodes {
		err = fmt.Errorf("loaded %d nodes", len(m.Nodes))
	}
	return err
}

// writeSchedulerLog writes the dump kube-scheduler would log for the
// cluster in path, in v1.36's text layout, and reports its size.
func writeSchedulerLog(b *testing.B, path, logPath string) string {
	b.Helper()
	c, err := load.ReadFiles(load.FileOptions{Filenames: []string{path}}, io.Discard)
	if err != nil {
		b.Fatal(err)
	}
	m, err := model.Build(c, cache.Options{})
	if err != nil {
		b.Fatal(err)
	}
	f, err := os.Create(logPath)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriter(f)
	if err := schedlog.Write(w, compare.DumpOf(m), schedlog.WriteOptions{}); err != nil {
		b.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	fi, err := f.Stat()
	if err != nil {
		b.Fatal(err)
	}
	_ = f.Close()
	b.Logf("scheduler log: %d bytes, %d NodeInfos, %d pods", fi.Size(), m.Cache.NodeCount(), len(c.Pods))
	return logPath
}
