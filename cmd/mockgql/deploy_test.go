package main

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/compose-spec/compose-go/v2/loader"
	"github.com/compose-spec/compose-go/v2/types"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
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
	if kust.Kind != "Kustomization" || len(kust.Resources) != 4 {
		t.Fatalf("kustomization: %+v", kust)
	}
	flags := serveFlagNames()
	var sts appsv1.StatefulSet
	var svcs []corev1.Service
	var pdb policyv1.PodDisruptionBudget
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
	if sel, err := labelsSelector(pdb.Spec.Selector.MatchLabels); err != nil || !sel.Matches(pod) || pdb.Spec.MaxUnavailable == nil {
		t.Errorf("the PodDisruptionBudget does not cover the pods: %+v", pdb.Spec)
	}
	for _, s := range sts.Spec.Template.Spec.Containers[0].Args {
		if strings.HasPrefix(s, "--join=") && strings.Count(s, ",")+1 != int(*sts.Spec.Replicas) {
			t.Errorf("--join lists %d seeds for %d replicas", strings.Count(s, ",")+1, *sts.Spec.Replicas)
		}
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
		if s.Build == nil || filepath.Base(s.Build.Dockerfile) != "Dockerfile" {
			t.Errorf("%s builds %+v, want deploy/Dockerfile", name, s.Build)
		}
		for _, a := range s.Command {
			flags.checkArg(t, name+" command", a)
		}
		for k := range s.Environment {
			flags.checkEnv(t, name+" environment", k)
		}
		net := s.Networks["mgq"]
		if net == nil || !strings.Contains(strings.Join(s.Command, " "), "--cluster-bind="+net.Ipv4Address+":7946") {
			t.Errorf("%s: --cluster-bind is not its fixed address %+v", name, net)
		}
	}
}

// TestDockerfileBuildsLikeMake: the image's binary is built with the same
// command as `make build` (environment, flags and package; only the output
// path differs).
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
	df := build.FindStringSubmatch(read(filepath.Join(deployDir, "Dockerfile")))
	if mk == nil || df == nil {
		t.Fatalf("build command not found: Makefile %q, Dockerfile %q", mk, df)
	}
	if strings.Join(mk[1:], " ") != strings.Join(df[1:], " ") {
		t.Errorf("make build runs %q, the Dockerfile %q", mk[0], df[0])
	}
	if !strings.Contains(read(filepath.Join(deployDir, "Dockerfile")), `ENTRYPOINT ["/mockgql", "serve"]`) {
		t.Error("the image's entry point is not mockgql serve")
	}
}
