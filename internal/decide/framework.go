package decide

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sort"
	"sync"
	"time"

	v1 "k8s.io/api/core/v1"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	toolscache "k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/events"
	"k8s.io/dynamic-resource-allocation/deviceclass/extendedresourcecache"
	resourceslicetracker "k8s.io/dynamic-resource-allocation/resourceslice/tracker"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/features"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/dynamicresources"
	plfeature "k8s.io/kubernetes/pkg/scheduler/framework/plugins/feature"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/nodevolumelimits"
	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"
	"k8s.io/kubernetes/pkg/scheduler/metrics"
	"k8s.io/kubernetes/pkg/scheduler/util/assumecache"

	utilfeature "k8s.io/apiserver/pkg/util/feature"

	"github.com/schedcache/kubectl-schedcache/pkg/cache"
)

// Input is what an Evaluator decides over.
type Input struct {
	// Snapshot is the cache's view of the nodes, in NodeTree order.
	Snapshot *cache.Snapshot
	// Pending are the pods the scheduler's queue holds (unassigned, not
	// terminal). Those with status.nominatedNodeName are the nominated pods
	// every filter pass accounts for; all of them can be read back through
	// the framework's pod lister, as DefaultPreemption does.
	Pending []*v1.Pod
	// Objects are the other objects the plugins read (load.Cluster.Objects):
	// PVCs, PVs, StorageClasses, CSI objects, Namespaces, Services and
	// workloads, PodDisruptionBudgets, DRA objects.
	Objects []k8sruntime.Object
	// Config is the scheduler configuration; nil means DefaultConfig.
	Config *Config
	// Parallelism is the number of goroutines the plugins and the filter
	// step use; 0 means GOMAXPROCS.
	Parallelism int
	// OmitNodes makes Evaluate return verdicts without per-node results
	// (Verdict.Nodes nil; the counts and the message are kept), for callers
	// that print only the pod-level outcome. At 5,000 nodes each kept
	// verdict holds 5,000 NodeResults, so for every pending pod of a large
	// cluster they would be most of the memory.
	OmitNodes bool
	// NearMisses is how many nodes an unschedulable pod's verdict lists
	// in Verdict.NearMisses (Evaluate only): 0 none (the analysis does not
	// run: it filters every node again), a negative number every rejected
	// node.
	NearMisses int
	// Cycles is how many cycles the caller will run, when it knows (why -A
	// and report: one per pending pod); 0 means unknown. From more than
	// the affinity view's warmup on, the view prunes from the first pod:
	// the warmup saves indexing the pods on short runs only.
	Cycles int
	// EvaluateEach makes Evaluate run every pod's cycle, never reusing the
	// verdict of an identical pod (classKey), and every plugin run on every
	// node, never reusing a result shared between pods (sharedResults):
	// for checking that reuse.
	EvaluateEach bool
	// withoutAffinityView builds InterPodAffinity over the full lister, as
	// upstream does (tests compare the two).
	withoutAffinityView bool
	// withoutSharedResults runs every plugin on every node, the class
	// verdicts still reused (tests compare the two).
	withoutSharedResults bool
	// withoutCarriedFilters filters every node of every cycle, never
	// serving a node's kept outcome (carriedFilters; tests compare the two).
	withoutCarriedFilters bool
}

// Evaluator runs scheduling cycles for pods over one cluster state. It is
// not safe for concurrent use: the scheduler runs one cycle at a time too.
type Evaluator struct {
	cfg        *Config
	frameworks map[string]framework.Framework
	lister     *lister
	affinity   *affinityView
	nominator  *nominator
	pods       toolscache.Indexer
	// listed are the objects pods holds, listedAs the one under each key.
	listed   map[*v1.Pod]bool
	listedAs map[types.NamespacedName]*v1.Pod
	victims  *victimRecorder
	// parallelism of the filter step.
	parallelism int
	// statuses is the filter step's scratch, one per candidate node, kept
	// from cycle to cycle (5,000 pointers a cycle at 5,000 nodes).
	statuses []*fwk.Status
	// missed is filterRange's scratch: the chunk's nodes with no kept
	// outcome.
	missed []int
	// candidates is cycle.candidates's scratch.
	candidates []int
	// nextStartNodeIndex is where the next sequential cycle starts scanning
	// (Schedule only; Evaluate always starts at 0).
	nextStartNodeIndex int
	// cycle counts sequential cycles, for OpportunisticBatching.
	cycle int64
	// preempted: the node each pod was nominated to by Schedule's
	// preemption; preemptions counts its changes.
	preempted   map[types.UID]string
	preemptions int
	// queued holds SetPending's reading of each pod object.
	queued map[*v1.Pod]*queuedPod
	// memo holds Evaluate's verdicts by class (classKey) while the state holds.
	memo map[string]*Verdict
	// shared holds plugin results shared between pods while the state holds.
	shared *sharedResults
	// copies are the nodes with nominated pods added, shared between pods.
	copies *nominatedCopies
	// carried keeps each node's Filter outcome per pod shape across cycles.
	carried *carriedFilters
	// evaluateEach: Input.EvaluateEach.
	evaluateEach bool
	// identity: what makes a pod's cycle its own beside its fields.
	identity podIdentity
	// omitNodes: Evaluate drops Verdict.Nodes (Input.OmitNodes).
	omitNodes bool
	// nearMisses: Input.NearMisses.
	nearMisses int
	cancel     context.CancelFunc
}

// initMetrics creates kube-scheduler's metric vectors once, as
// metrics.Register does, without registering them: the framework needs them
// to exist (it looks its per-plugin counters up when it is built), and
// unregistered vectors hand out no-op counters. Registered, every Filter and
// Score call of every node added to one shared counter, a measurable part of
// the CPU of placing the pending pods at 5,000 nodes, for numbers nothing
// here reads (docs/PERFORMANCE.md#decisions).
var initMetrics = sync.OnceFunc(metrics.InitMetrics)

// New builds the frameworks of every profile of in.Config over in, the way
// kube-scheduler v1.36's scheduler.New does (pkg/scheduler/scheduler.go):
// scheduler metrics created (not registered: see initMetrics), the in-tree
// registry, a CSI manager and a DRA manager over informers, one framework
// per profile sharing them, then the informers started and synced. The informers read a fake clientset
// seeded with in.Objects; nothing ever talks to a real cluster.
//
// Errors: a profile the framework refuses (e.g. a plugin that does not
// exist), or informers that fail to sync.
func New(ctx context.Context, in Input) (*Evaluator, error) {
	cfg := in.Config
	if cfg == nil {
		var err error
		if cfg, err = DefaultConfig(); err != nil {
			return nil, err
		}
	}
	if in.Snapshot == nil {
		return nil, errors.New("decide: no snapshot")
	}
	par := in.Parallelism
	if par <= 0 {
		par = runtime.GOMAXPROCS(0)
	}
	initMetrics()
	ctx, cancel := context.WithCancel(klog.NewContext(ctx, klog.Background()))
	e := &Evaluator{
		cfg:          cfg,
		frameworks:   map[string]framework.Framework{},
		lister:       newLister(par),
		nominator:    newNominator(),
		victims:      newVictimRecorder(),
		preempted:    map[types.UID]string{},
		queued:       map[*v1.Pod]*queuedPod{},
		listed:       map[*v1.Pod]bool{},
		listedAs:     map[types.NamespacedName]*v1.Pod{},
		memo:         map[string]*Verdict{},
		parallelism:  par,
		omitNodes:    in.OmitNodes,
		evaluateEach: in.EvaluateEach,
		identity:     newPodIdentity(in.Objects),
		nearMisses:   in.NearMisses,
		cancel:       cancel,
	}
	e.lister.refresh(in.Snapshot)
	e.shared = newSharedResults(e.lister, in.EvaluateEach || in.withoutSharedResults)
	e.copies = newNominatedCopies(e.shared)
	e.carried = newCarriedFilters(e.shared, in.withoutCarriedFilters)
	if err := e.build(ctx, in, par); err != nil {
		e.Close()
		return nil, err
	}
	for _, p := range in.Pending {
		e.addPod(p)
	}
	return e, nil
}

func (e *Evaluator) build(ctx context.Context, in Input, par int) error {
	// The simple clientset, not NewClientset: its field-managed tracker
	// builds a type converter from the OpenAPI schema of every built-in type
	// (parsed from YAML, 0.1 s of CPU before the first cycle, with the
	// other core idle), for server-side apply, which no plugin or
	// scenario here uses: the objects are only listed and watched.
	client := fake.NewSimpleClientset(in.Objects...)
	factory := informers.NewSharedInformerFactory(client, 0)
	draManager, handlers, err := newDRAManager(ctx, client, factory)
	if err != nil {
		return err
	}
	opts := []frameworkruntime.Option{
		frameworkruntime.WithClientSet(client),
		frameworkruntime.WithInformerFactory(factory),
		frameworkruntime.WithSnapshotSharedLister(e.lister),
		frameworkruntime.WithPodNominator(e.nominator),
		frameworkruntime.WithPodActivator(noActivator{}),
		frameworkruntime.WithEventRecorder(events.NewFakeRecorder(0)),
		frameworkruntime.WithSharedCSIManager(nodevolumelimits.NewCSIManager(factory.Storage().V1().CSINodes().Lister())),
		frameworkruntime.WithSharedDRAManager(draManager),
		frameworkruntime.WithWaitingPods(frameworkruntime.NewWaitingPodsMap()),
		frameworkruntime.WithPodsInPreBind(frameworkruntime.NewPodsInPreBindMap()),
		frameworkruntime.WithParallelism(par),
		// The framework records its metrics through an asynchronous
		// recorder; nothing reads them here, and Close waits for the
		// recorder's loop, which sleeps this long between flushes.
		frameworkruntime.WithMetricsRecorder(metrics.NewMetricsAsyncRecorder(1000, 20*time.Millisecond, ctx.Done())),
	}
	registry := plugins.NewInTreeRegistry()
	registry[e.victims.pluginName()] = e.victims.factory(plfeature.NewSchedulerFeaturesFromGates(utilfeature.DefaultFeatureGate))
	if !in.withoutAffinityView {
		e.affinity = newAffinityView(e.lister)
		if in.Cycles > e.affinity.warmup {
			e.affinity.warmup = 0
		}
		withAffinityView(registry, e.affinity)
	}
	withSharedResults(registry, e.shared)
	for i := range e.cfg.cfg.Profiles {
		profile := &e.cfg.cfg.Profiles[i]
		fw, err := frameworkruntime.NewFramework(ctx, registry, profile, opts...)
		if err != nil {
			return fmt.Errorf("profile %q: %w", profile.SchedulerName, err)
		}
		e.frameworks[profile.SchedulerName] = fw
	}
	// The pod informer exists so that DefaultPreemption can read the pod
	// back; it is filled directly (addPod), never from the client.
	e.pods = factory.Core().V1().Pods().Informer().GetIndexer()
	factory.Start(ctx.Done())
	for typ, ok := range factory.WaitForCacheSync(ctx.Done()) {
		if !ok {
			if ctx.Err() != nil { // interrupted, not an informer's fault
				return fmt.Errorf("informer for %v did not sync: %w", typ, context.Cause(ctx))
			}
			return fmt.Errorf("informer for %v did not sync", typ)
		}
	}
	return waitForHandlers(ctx, handlers)
}

// waitForHandlers waits until every handler has been given the objects of
// its informer's initial list, as kube-scheduler's WaitForHandlersSync does
// before its first cycle (scheduler.go, eventhandlers.go, v1.36.3). An
// informer's cache is synced (WaitForCacheSync) before its handlers have
// run: the DRA manager's claim cache and the ResourceSlice tracker are
// filled by handlers on their own goroutines, and a cycle that ran before
// them found no claims ("could not find ResourceClaim").
func waitForHandlers(ctx context.Context, handlers []toolscache.DoneChecker) error {
	for _, h := range handlers {
		select {
		case <-h.Done():
		case <-ctx.Done():
			return fmt.Errorf("%s did not sync: %w", h.Name(), context.Cause(ctx))
		}
	}
	return nil
}

// newDRAManager builds DynamicResources' view of claims, slices and device
// classes when the DynamicResourceAllocation gate is on (the v1.36
// default), as scheduler.New does, and returns the handlers that fill it,
// for waitForHandlers: the claim cache's (the registration the assume cache
// hands to every handler added to it, as addAllEventHandlers adds the
// scheduler's), the ResourceSlice tracker's, and, with DRAExtendedResource
// on (the v1.36 default), the extended-resource cache's, which upstream
// feeds from the DeviceClass informer the same way (eventhandlers.go).
func newDRAManager(ctx context.Context, client *fake.Clientset, factory informers.SharedInformerFactory) (fwk.SharedDRAManager, []toolscache.DoneChecker, error) {
	if !utilfeature.DefaultFeatureGate.Enabled(features.DynamicResourceAllocation) {
		return nil, nil, nil
	}
	claims := assumecache.NewAssumeCache(klog.FromContext(ctx), factory.Resource().V1().ResourceClaims().Informer(), "ResourceClaim", "", nil)
	opts := resourceslicetracker.Options{
		EnableDeviceTaintRules:   utilfeature.DefaultFeatureGate.Enabled(features.DRADeviceTaintRules),
		EnableConsumableCapacity: utilfeature.DefaultFeatureGate.Enabled(features.DRAConsumableCapacity),
		SliceInformer:            factory.Resource().V1().ResourceSlices(),
		KubeClient:               client,
	}
	if opts.EnableDeviceTaintRules {
		opts.TaintInformer = factory.Resource().V1beta2().DeviceTaintRules()
		opts.ClassInformer = factory.Resource().V1().DeviceClasses()
	}
	tracker, err := resourceslicetracker.StartTracker(ctx, opts)
	if err != nil {
		return nil, nil, fmt.Errorf("starting the ResourceSlice tracker: %w", err)
	}
	manager := dynamicresources.NewDRAManager(ctx, claims, tracker, factory)
	handlers := []toolscache.DoneChecker{
		claims.AddEventHandler(toolscache.ResourceEventHandlerFuncs{}).HasSyncedChecker(),
		tracker.HasSyncedChecker(),
	}
	if erCache, ok := manager.DeviceClassResolver().(*extendedresourcecache.ExtendedResourceCache); ok && erCache != nil {
		reg, err := factory.Resource().V1().DeviceClasses().Informer().AddEventHandler(erCache)
		if err != nil {
			return nil, nil, fmt.Errorf("feeding the extended-resource cache: %w", err)
		}
		handlers = append(handlers, reg.HasSyncedChecker())
	}
	return manager, handlers, nil
}

// addPod makes a pending pod known to the framework: readable through the
// pod lister, and nominated if its status says so.
func (e *Evaluator) addPod(p *v1.Pod) {
	e.listPod(p)
	if p.Status.NominatedNodeName != "" && p.Spec.NodeName == "" {
		e.nominator.AddNominatedPod(klog.Background(), e.podInfoOf(p), nil)
	}
}

// Close stops the frameworks' goroutines and informers.
func (e *Evaluator) Close() {
	e.cancel()
	for _, fw := range e.frameworks {
		frameworkruntime.WaitForShutdown(fw)
	}
}

// Profiles lists the scheduler names the Evaluator serves, sorted.
func (e *Evaluator) Profiles() []string {
	out := make([]string, 0, len(e.frameworks))
	for name := range e.frameworks {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// noActivator: the framework asks it to move pods between queues, which
// have no meaning outside the scheduler.
type noActivator struct{}

func (noActivator) Activate(klog.Logger, map[string]*v1.Pod) {}
