package views

import (
	"encoding/json"
	"testing"

	"github.com/schedcache/kubectl-schedcache/internal/simulate"
	"github.com/schedcache/kubectl-schedcache/pkg/apis/v1alpha1"
)

// TestSimulationKeepsEveryField: every field of a simulate run reaches
// the Simulation kind, with its kind and version; an empty list stays an
// empty JSON list ("nodes": []) and a nil one stays absent or null, as the
// run built them.
func TestSimulationKeepsEveryField(t *testing.T) {
	u := func(cpu int64) *simulate.Usage {
		return &simulate.Usage{MilliCPU: cpu, Memory: 1, Pods: 2, Overflow: []string{"memory"}}
	}
	r := &simulate.Result{
		Source: "file c.yaml",
		Settings: simulate.Settings{Mode: "timeline", Start: "S", TTL: "30s", TTLMillis: 30000, TTLSource: "src", KubeVersion: "v1.36.3",
			ZeroTTLExpires: true, End: "1s", EndMillis: 1000,
			Timeline: &simulate.TimelineSettings{Bind: "lost", BindFor: []simulate.BindOverride{{Pod: "ns/p", Outcome: "fail"}}, Node: "n1",
				BindLatency: "1ms", BindLatencyMillis: 1, CleanupPeriod: "1s", CleanupPeriodMillis: 1000, Until: "2s", UntilMillis: 2000}},
		Events: []simulate.Event{{At: "0s", Step: 3, Event: simulate.EventAssume, Pod: &simulate.PodRef{Namespace: "ns", Name: "p", UID: "u"},
			Node: "n1", From: "Initial", To: "Assumed", Requested: u(5), Note: "why", Error: "err", TiedNodes: []string{"n2"}}},
		Nodes: []simulate.Node{{Name: "n1", Allocatable: *u(9), After: u(8), Placeholder: true, Ghost: true}},
		Pods: []simulate.Pod{{PodRef: simulate.PodRef{Namespace: "ns", Name: "q", UID: "v"}, Requested: *u(7), State: "Unschedulable", Detail: "d",
			Unschedulable: []simulate.NodeReasons{{Node: "n1", Plugin: "NodeResourcesFit"}}}},
	}
	got, err := json.Marshal(Simulation(r, &v1alpha1.WhatIf{Cordoned: []string{"n3"}}))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"kind":"Simulation","apiVersion":"schedcache.kubectl.io/v1alpha1","source":"file c.yaml",` +
		`"settings":{"mode":"timeline","start":"S","ttl":"30s","ttlMillis":30000,"ttlSource":"src","kubeVersion":"v1.36.3","zeroTTLExpires":true,"end":"1s","endMillis":1000,` +
		`"timeline":{"bind":"lost","bindFor":[{"pod":"ns/p","outcome":"fail"}],"node":"n1","bindLatency":"1ms","bindLatencyMillis":1,"cleanupPeriod":"1s","cleanupPeriodMillis":1000,"until":"2s","untilMillis":2000}},` +
		`"events":[{"at":"0s","atMillis":0,"step":3,"event":"assume","pod":{"namespace":"ns","name":"p","uid":"u"},"node":"n1","from":"Initial","to":"Assumed",` +
		`"requested":{"milliCPU":5,"memory":1,"pods":2,"overflow":["memory"]},"note":"why","error":"err","tiedNodes":["n2"]}],` +
		`"nodes":[{"name":"n1","allocatable":{"milliCPU":9,"memory":1,"pods":2,"overflow":["memory"]},"after":{"milliCPU":8,"memory":1,"pods":2,"overflow":["memory"]},"placeholder":true,"ghost":true}],` +
		`"pods":[{"namespace":"ns","name":"q","uid":"v","requested":{"milliCPU":7,"memory":1,"pods":2,"overflow":["memory"]},"state":"Unschedulable","detail":"d",` +
		`"unschedulable":[{"node":"n1","plugin":"NodeResourcesFit","reasons":null}]}],` +
		`"whatIf":{"cordoned":["n3"]}}`
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	empty, err := json.Marshal(Simulation(&simulate.Result{Events: []simulate.Event{}, Nodes: []simulate.Node{}, Pods: []simulate.Pod{}}, nil))
	if err != nil {
		t.Fatal(err)
	}
	if want := `"events":[],"nodes":[],"pods":[]}`; string(empty[len(empty)-len(want):]) != want {
		t.Errorf("empty run: %s, want it to end %s", empty, want)
	}
}
