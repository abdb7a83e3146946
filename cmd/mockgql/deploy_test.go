package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/compose-spec/compose-go/v2/loader"
	"github.com/compose-spec/compose-go/v2/types"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/labels"
	"sigs.k8s.io/yaml"
)

// deployDir is deploy/ from this package's folder.
const deployDir = "../../deploy"

// knownFlags checks a serve argument ("--name=value" or "--name") or an
// MGQ_ variable against the flags `mockgql serve` really has.
type knownFlags map[string]bool

func serveFlagNames() knownFlags {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	serveFlags(fs, &serveConfig{})
	names := knownFlags{}
	fs.VisitAll(func(f *flag.Flag) { names[f.Name] = true })
	return names
}

func (k knownFlags) checkArg(t *testing.T, where, arg string) {
	t.Helper()
	name, _, _ := strings.Cut(strings.TrimLeft(arg, "-"), "=")
	if !strings.HasPrefix(arg, "-") || !k[name] {
		t.Errorf("%s: %q is no flag of mockgql serve", where, arg)
	}
}

func (k knownFlags) checkEnv(t *testing.T, where, env string) {
	t.Helper()
	if !strings.HasPrefix(env, "MGQ_") {
		return
	}
	for name := range k {
		if envName(name) == env {
			return
		}
	}
	t.Errorf("%s: %s names no flag of mockgql serve", where, env)
}

// strict decodes a manifest into v, refusing unknown and duplicate fields.
func strict(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.UnmarshalStrict(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// TestDeployKubernetes decodes every manifest kustomization.yaml lists into
// the Kubernetes API's own types, strictly (an unknown or misplaced field
// fails), and checks that the pieces fit: selectors match the pod labels,
// the peers Service is headless, ports and probes name real ports and
// routes, and every flag and MGQ_ variable is one mockgql serve has.
func TestDeployKubernetes(t *testing.T) {
	dir := filepath.Join(deployDir, "k8s")
	var kust struct {
		APIVersion         string   `json:"apiVersion"`
		Kind               string   `json:"kind"`
		Resources          []string `json:"resources"`
		Images             []struct{ Name, NewName, NewTag string }
		ConfigMapGenerator []struct {
			Name     string   `json:"name"`
			Literals []string `json:"literals"`
		} `json:"configMapGenerator"`
	}
	strict(t, filepath.Join(dir, "kustomization.yaml"), &kust)
	if kust.Kind != "Kustomization" || len(kust.Resources) != 5 {
		t.Fatalf("kustomization: %+v", kust)
	}
	flags := serveFlagNames()
	var sts appsv1.StatefulSet
	var svcs []corev1.Service
	var pdb policyv1.PodDisruptionBudget
	var policy networkingv1.NetworkPolicy
	for _, r := range kust.Resources {
		path := filepath.Join(dir, r)
		var head struct{ Kind string }
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := yaml.Unmarshal(b, &head); err != nil {
			t.Fatal(err)
		}
		switch head.Kind {
		case "StatefulSet":
			strict(t, path, &sts)
		case "Service":
			var s corev1.Service
			strict(t, path, &s)
			svcs = append(svcs, s)
		case "PodDisruptionBudget":
			strict(t, path, &pdb)
		case "NetworkPolicy":
			strict(t, path, &policy)
		default:
			t.Fatalf("%s: unexpected kind %q", r, head.Kind)
		}
	}
	pod := labels.Set(sts.Spec.Template.Labels)
	sel, err := labelsSelector(sts.Spec.Selector.MatchLabels)
	if err != nil || !sel.Matches(pod) {
		t.Errorf("the StatefulSet's selector does not match its pods: %v", err)
	}
	if len(sts.Spec.Template.Spec.Containers) != 1 {
		t.Fatalf("containers: %d", len(sts.Spec.Template.Spec.Containers))
	}
	c := sts.Spec.Template.Spec.Containers[0]
	ports := map[string]bool{}
	for _, p := range c.Ports {
		ports[p.Name] = true
	}
	for _, a := range c.Args {
		flags.checkArg(t, "statefulset args", a)
	}
	for _, e := range c.Env {
		flags.checkEnv(t, "statefulset env", e.Name)
	}
	for _, g := range kust.ConfigMapGenerator {
		for _, l := range g.Literals {
			name, _, _ := strings.Cut(l, "=")
			flags.checkEnv(t, "configMapGenerator", name)
		}
	}
	for name, p := range map[string]*corev1.Probe{"startup": c.StartupProbe, "liveness": c.LivenessProbe, "readiness": c.ReadinessProbe} {
		if p == nil || p.HTTPGet == nil || !ports[p.HTTPGet.Port.String()] || p.HTTPGet.Path != "/healthz" && p.HTTPGet.Path != "/readyz" {
			t.Errorf("%s probe %+v: want an HTTP GET of /healthz or /readyz on a named container port", name, p)
		}
	}
	if c.ReadinessProbe.HTTPGet.Path != "/readyz" {
		t.Errorf("readiness probes %s, want /readyz", c.ReadinessProbe.HTTPGet.Path)
	}
	peers := false
	for _, s := range svcs {
		if !labels.SelectorFromSet(s.Spec.Selector).Matches(pod) {
			t.Errorf("Service %s selects no pod of the StatefulSet", s.Name)
		}
		for _, p := range s.Spec.Ports {
			if !ports[p.TargetPort.String()] {
				t.Errorf("Service %s targets port %q, which the container does not name", s.Name, p.TargetPort.String())
			}
		}
		if s.Name == sts.Spec.ServiceName {
			peers = s.Spec.ClusterIP == corev1.ClusterIPNone
		}
	}
	if !peers {
		t.Errorf("serviceName %q is not a headless Service of the manifests", sts.Spec.ServiceName)
	}
	checkNetworkPolicy(t, policy, c, pod)
	if sel, err := labelsSelector(pdb.Spec.Selector.MatchLabels); err != nil || !sel.Matches(pod) || pdb.Spec.MaxUnavailable == nil {
		t.Errorf("the PodDisruptionBudget does not cover the pods: %+v", pdb.Spec)
	}
	for _, s := range sts.Spec.Template.Spec.Containers[0].Args {
		if strings.HasPrefix(s, "--join=") && strings.Count(s, ",")+1 != int(*sts.Spec.Replicas) {
			t.Errorf("--join lists %d seeds for %d replicas", strings.Count(s, ",")+1, *sts.Spec.Replicas)
		}
	}
}

// checkNetworkPolicy: the policy selects the pods and opens exactly the
// container's ports, which are exactly those its flags listen on: HTTP to
// anyone, memberlist (--cluster-bind, TCP and UDP) and the gRPC remote
// (--cluster-remote) to the other mockgql pods only.
func checkNetworkPolicy(t *testing.T, policy networkingv1.NetworkPolicy, c corev1.Container, pod labels.Set) {
	t.Helper()
	if sel, err := labelsSelector(policy.Spec.PodSelector.MatchLabels); err != nil || !sel.Matches(pod) {
		t.Errorf("the NetworkPolicy does not select the pods: %+v", policy.Spec.PodSelector)
	}
	byName := map[string]corev1.ContainerPort{}
	for _, p := range c.Ports {
		byName[p.Name] = p
	}
	flagPort := func(flag string) int32 {
		for _, a := range c.Args {
			if v, ok := strings.CutPrefix(a, "--"+flag+"="); ok {
				_, port, _ := strings.Cut(v, "):")
				n, _ := strconv.Atoi(port)
				return int32(n)
			}
		}
		t.Errorf("the StatefulSet does not pass --%s", flag)
		return 0
	}
	want := map[string]string{ // "port/protocol" → who may reach it
		"8080/TCP": "anyone", fmt.Sprintf("%d/TCP", flagPort("cluster-bind")): "peers",
		fmt.Sprintf("%d/UDP", flagPort("cluster-bind")): "peers", fmt.Sprintf("%d/TCP", flagPort("cluster-remote")): "peers",
	}
	got := map[string]string{}
	for _, rule := range policy.Spec.Ingress {
		who := "anyone"
		if len(rule.From) > 0 {
			who = "peers"
			if rule.From[0].PodSelector == nil || !labels.SelectorFromSet(rule.From[0].PodSelector.MatchLabels).Matches(pod) {
				t.Errorf("a NetworkPolicy rule admits %+v, not the mockgql pods", rule.From)
			}
		}
		for _, p := range rule.Ports {
			cp, ok := byName[p.Port.String()]
			if !ok || p.Protocol == nil || *p.Protocol != cp.Protocol {
				t.Errorf("the NetworkPolicy opens %v, which is no container port", p.Port)
				continue
			}
			got[fmt.Sprintf("%d/%s", cp.ContainerPort, cp.Protocol)] = who
		}
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("the NetworkPolicy opens %v, want %v", got, want)
	}
	if len(c.Ports) != len(want) {
		t.Errorf("the container names %d ports, want the %d its flags use", len(c.Ports), len(want))
	}
}

func labelsSelector(m map[string]string) (labels.Selector, error) {
	if len(m) == 0 {
		return nil, os.ErrInvalid
	}
	return labels.SelectorFromSet(m), nil
}

// TestDeployCompose loads the compose file with compose-go, the Compose
// specification's reference loader (schema validation included), and
// checks every node's command and MGQ_ variables against mockgql serve's
// flags, and that the nodes join each other on their fixed addresses.
func TestDeployCompose(t *testing.T) {
	path := filepath.Join(deployDir, "docker-compose.yml")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	p, err := loader.LoadWithContext(context.Background(), types.ConfigDetails{
		WorkingDir:  deployDir,
		ConfigFiles: []types.ConfigFile{{Filename: path, Content: b}},
		Environment: types.Mapping{},
	}, func(o *loader.Options) { o.SetProjectName("mockgql", true) })
	if err != nil {
		t.Fatalf("compose: %v", err)
	}
	flags := serveFlagNames()
	if len(p.Services) != 3 {
		t.Fatalf("services: %d, want 3", len(p.Services))
	}
	for name, s := range p.Services {
		if s.Build != nil || s.Image != "mockgql:latest" {
			t.Errorf("%s: image %q, build %+v; want make image's mockgql:latest (no build: deploy/Dockerfile's context is bin/image)", name, s.Image, s.Build)
		}
		for _, a := range s.Command {
			flags.checkArg(t, name+" command", a)
		}
		for k := range s.Environment {
			flags.checkEnv(t, name+" environment", k)
		}
		net := s.Networks["mgq"]
		if net == nil || !strings.Contains(strings.Join(s.Command, " "), "--cluster-bind="+net.Ipv4Address+":7946") ||
			!strings.Contains(strings.Join(s.Command, " "), "--cluster-remote="+net.Ipv4Address+":7947") {
			t.Errorf("%s: --cluster-bind and --cluster-remote are not its fixed address %+v", name, net)
		}
	}
}

// TestDockerfileBuildsLikeMake: deploy/Dockerfile.source builds the binary
// with the same command as `make build` (environment, flags and package;
// only the output path differs), and it and deploy/Dockerfile (which
// `make image` builds, TestClusterContainers runs) end in the same image.
func TestDockerfileBuildsLikeMake(t *testing.T) {
	read := func(path string) string {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return strings.ReplaceAll(string(b), "\\\n", " ")
	}
	build := regexp.MustCompile(`(CGO_ENABLED=\S+)\s+(?:\$\(GO\)|go) build (.*?) -o \S+ (\./cmd/mockgql)`)
	mk := build.FindStringSubmatch(read("../../Makefile"))
	source := read(filepath.Join(deployDir, "Dockerfile.source"))
	df := build.FindStringSubmatch(source)
	if mk == nil || df == nil {
		t.Fatalf("build command not found: Makefile %q, Dockerfile.source %q", mk, df)
	}
	if strings.Join(mk[1:], " ") != strings.Join(df[1:], " ") {
		t.Errorf("make build runs %q, the Dockerfile.source %q", mk[0], df[0])
	}
	final := func(text string) []string { // the last stage's instructions but COPY
		var out []string
		for _, line := range strings.Split(text[strings.LastIndex(text, "FROM scratch"):], "\n") {
			if f := strings.Fields(line); len(f) > 0 && !strings.HasPrefix(f[0], "#") && f[0] != "COPY" {
				out = append(out, strings.Join(f, " "))
			}
		}
		return out
	}
	image := read(filepath.Join(deployDir, "Dockerfile"))
	if a, b := final(image), final(source); strings.Join(a, "\n") != strings.Join(b, "\n") {
		t.Errorf("the images differ:\nDockerfile:\n%s\nDockerfile.source:\n%s", strings.Join(a, "\n"), strings.Join(b, "\n"))
	}
	for _, want := range []string{`ENTRYPOINT ["/mockgql", "serve"]`, `CMD ["/mockgql", "healthcheck"]`, "USER 65532:65532"} {
		if !strings.Contains(image, want) {
			t.Errorf("deploy/Dockerfile lacks %s", want)
		}
	}
}
