package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
)

// abRun is make bench-ab: it builds mockgql at o.ab (from git archive, so
// the repository's worktrees are untouched) and at the working tree, then
// runs this benchmark o.rounds times against each binary, alternating
// old/new and swapping which goes first every round, so that the machine's
// drift falls on both alike. Every round is a child process of this
// binary (same scenarios, same generated data, fresh servers) that writes
// its rows as JSON; the driver prints each scenario's new/old ratio of
// requests a second with its spread over the rounds.
func abRun(o options) error {
	if o.rounds < 5 {
		return fmt.Errorf("-rounds %d: at least 5", o.rounds)
	}
	dir, err := os.MkdirTemp("", "mockgql-bench-ab-")
	if err != nil {
		return err
	}
	if !o.keep {
		defer os.RemoveAll(dir)
	}
	src := filepath.Join(dir, "src")
	if err := gitArchive(o.ab, src); err != nil {
		return err
	}
	oldBin, newBin := filepath.Join(dir, "mockgql-old"), filepath.Join(dir, "mockgql-new")
	if err := buildMockgql(src, oldBin); err != nil {
		return err
	}
	if err := buildMockgql(".", newBin); err != nil {
		return err
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	var olds, news [][]rawRow
	for i := range o.rounds {
		order := []string{"old", "new"}
		if i%2 == 1 {
			order = []string{"new", "old"}
		}
		for _, side := range order {
			bin := oldBin
			if side == "new" {
				bin = newBin
			}
			fmt.Printf("round %d/%d: %s\n", i+1, o.rounds, side)
			rows, err := abRound(self, bin, filepath.Join(dir, fmt.Sprintf("round%d-%s.json", i, side)), o)
			if err != nil {
				return fmt.Errorf("round %d (%s): %w", i+1, side, err)
			}
			if side == "old" {
				olds = append(olds, rows)
			} else {
				news = append(news, rows)
			}
		}
	}
	printAB(o.ab, abCompare(olds, news))
	return nil
}

// gitArchive writes the tree of ref into dir.
func gitArchive(ref, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	archive := exec.Command("git", "archive", "--format=tar", ref)
	untar := exec.Command("tar", "-x", "-C", dir)
	pipe, err := archive.StdoutPipe()
	if err != nil {
		return err
	}
	untar.Stdin = pipe
	var stderr strings.Builder
	archive.Stderr, untar.Stderr = &stderr, &stderr
	if err := untar.Start(); err != nil {
		return err
	}
	if err := archive.Run(); err != nil {
		_ = untar.Wait()
		return fmt.Errorf("git archive %s: %v %s", ref, err, stderr.String())
	}
	if err := untar.Wait(); err != nil {
		return fmt.Errorf("tar: %v %s", err, stderr.String())
	}
	return nil
}

// abRound runs this benchmark once against bin with o's groups and sizes
// and returns its rows.
func abRound(self, bin, jsonFile string, o options) ([]rawRow, error) {
	args := []string{"-mockgql", bin, "-json", jsonFile, "-small", strconv.Itoa(o.rowsSmall), "-large", strconv.Itoa(o.rowsLarge),
		"-duration", o.duration.String(), "-conns", strconv.Itoa(o.conns)}
	if o.only != "" {
		args = append(args, "-only", o.only)
	}
	cmd := exec.Command(self, args...)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		return nil, err
	}
	b, err := os.ReadFile(jsonFile)
	if err != nil {
		return nil, err
	}
	return parseRound(b)
}

func parseRound(b []byte) ([]rawRow, error) {
	var rows []rawRow
	if err := json.Unmarshal(b, &rows); err != nil {
		return nil, fmt.Errorf("a round's rows: %w", err)
	}
	return rows, nil
}

// abLine is one scenario compared over the rounds: the new/old ratio of
// requests a second of each round (old and new of one round ran next to
// each other), its median and range.
type abLine struct {
	name               string
	oldRPS, newRPS     float64 // medians over the rounds
	median, low, high  float64 // of the per-round ratios new/old
	q1, q3             float64
	ratios             []float64 // per round, in round order
	rounds, firstRound int
	// The same ratio of each side's ratio to its own run's baseline (bare
	// gin, or what the row names), which that run measured in alternating
	// slices beside it: drift within a run cancels. Meaningless where the
	// baseline is mockgql itself (1 node vs a cluster): both sides change.
	rel                     []float64
	relMedian, relLo, relHi float64
}

// abCompare pairs round i of olds with round i of news by scenario name
// and summarises each scenario that has a measurement on both sides in
// every round it appears in (rows without requests, such as a flow's
// timing note, are left out), in the order of the first round.
func abCompare(olds, news [][]rawRow) []abLine {
	var order []string
	byName := map[string]*abLine{}
	oldRPS, newRPS := map[string][]float64{}, map[string][]float64{}
	for i := range min(len(olds), len(news)) {
		newIdx := map[string]rawRow{}
		for _, r := range news[i] {
			if _, dup := newIdx[r.Name]; !dup {
				newIdx[r.Name] = r
			}
		}
		for _, o := range olds[i] {
			n, ok := newIdx[o.Name]
			if !ok || o.RPS <= 0 || n.RPS <= 0 {
				continue
			}
			delete(newIdx, o.Name) // a repeated name pairs once
			l := byName[o.Name]
			if l == nil {
				l = &abLine{name: o.Name, firstRound: i}
				byName[o.Name] = l
				order = append(order, o.Name)
			}
			l.ratios = append(l.ratios, n.RPS/o.RPS)
			if o.BaseRPS > 0 && n.BaseRPS > 0 {
				l.rel = append(l.rel, (n.RPS/n.BaseRPS)/(o.RPS/o.BaseRPS))
			}
			oldRPS[o.Name] = append(oldRPS[o.Name], o.RPS)
			newRPS[o.Name] = append(newRPS[o.Name], n.RPS)
		}
	}
	out := make([]abLine, 0, len(order))
	for _, name := range order {
		l := byName[name]
		s := slices.Clone(l.ratios)
		slices.Sort(s)
		l.rounds = len(s)
		l.low, l.high = s[0], s[len(s)-1]
		l.median, l.q1, l.q3 = quantile(s, 0.5), quantile(s, 0.25), quantile(s, 0.75)
		l.oldRPS, l.newRPS = medianOf(oldRPS[name]), medianOf(newRPS[name])
		if len(l.rel) > 0 {
			r := slices.Clone(l.rel)
			slices.Sort(r)
			l.relMedian, l.relLo, l.relHi = quantile(r, 0.5), r[0], r[len(r)-1]
		}
		out = append(out, *l)
	}
	return out
}

// quantile of sorted values, interpolating linearly between neighbours.
func quantile(sorted []float64, p float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	pos := p * float64(len(sorted)-1)
	i := int(pos)
	if i+1 >= len(sorted) {
		return sorted[len(sorted)-1]
	}
	return sorted[i] + (pos-float64(i))*(sorted[i+1]-sorted[i])
}

func medianOf(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	return quantile(s, 0.5)
}

func printAB(ref string, lines []abLine) {
	fmt.Printf("\nnew (working tree) / old (%s), requests a second, each round's two runs side by side:\n\n", ref)
	w := tabwriter.NewWriter(os.Stdout, 2, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "scenario\told req/s\tnew req/s\tnew/old median\tIQR\tmin–max\trounds\tvs baseline: median\tmin–max\t")
	for _, l := range lines {
		rel := "—\t—"
		if len(l.rel) > 0 {
			rel = fmt.Sprintf("%.3f\t%.3f–%.3f", l.relMedian, l.relLo, l.relHi)
		}
		fmt.Fprintf(w, "%s\t%.0f\t%.0f\t%.3f\t%.3f–%.3f\t%.3f–%.3f\t%d\t%s\t\n", l.name, l.oldRPS, l.newRPS, l.median, l.q1, l.q3, l.low, l.high, l.rounds, rel)
	}
	w.Flush()
}
