package load

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"
)

// TestFileNamespace: namespaced objects read without a namespace get
// FileOptions.Namespace ("default" when empty); cluster-scoped ones keep
// none; an object's own namespace is kept.
func TestFileNamespace(t *testing.T) {
	in := `apiVersion: v1
kind: List
items:
- {apiVersion: v1, kind: Pod, metadata: {name: a}, spec: {containers: [{name: c, image: c}]}}
- {apiVersion: v1, kind: Pod, metadata: {name: b, namespace: own}, spec: {containers: [{name: c, image: c}]}}
- {apiVersion: v1, kind: PersistentVolumeClaim, metadata: {name: data}}
- {apiVersion: v1, kind: PersistentVolume, metadata: {name: pv}}
`
	for _, tc := range []struct{ given, want string }{{"", "default"}, {"team-a", "team-a"}} {
		c, err := ReadFiles(FileOptions{Filenames: []string{"-"}, Stdin: strings.NewReader(in), Objects: true, Namespace: tc.given}, nil)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, p := range c.Pods {
			got = append(got, p.Namespace+"/"+p.Name)
		}
		for _, o := range c.Objects {
			m, _ := meta.Accessor(o)
			got = append(got, m.GetNamespace()+"/"+m.GetName())
		}
		want := tc.want + "/a own/b " + tc.want + "/data /pv"
		if strings.Join(got, " ") != want {
			t.Errorf("Namespace %q: got %v, want %s", tc.given, got, want)
		}
	}
}
