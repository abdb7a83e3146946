package model

import (
	"fmt"
	"strings"
)

// ModelLimits bound what one project's model may hold, on every kind of
// project, so that an edit (which re-encodes the whole project record) and
// a read of the project cost at most what the bound allows. Every number
// is a setting (cmd/mockgql flags); 0 turns that bound off.
type ModelLimits struct {
	// ValueBytes bounds each free-form value of an attribute: constantValue,
	// generator options and kind, computedExpression, sourceMapping.path.
	ValueBytes int
	// Attributes is the number of attributes a table of an account project
	// may have (guest and session projects: Limits.SessionAttributes).
	Attributes int
	// ProjectBytes is the largest encoded project record of an account
	// project, by plan (index: PlanIndex); SessionProjectBytes that of a
	// guest or session project.
	ProjectBytes        [4]int64
	SessionProjectBytes int64
}

// DefaultModelLimits returns the default model bounds: 16 KiB a value,
// 200 attributes a table, and a project record of 1 MiB on STARTER, 4 MiB
// on PROFESSIONAL, 8 MiB on TEAM, 16 MiB on ENTERPRISE and 1 MiB for guest
// and session projects.
func DefaultModelLimits() ModelLimits {
	return ModelLimits{ValueBytes: 16 << 10, Attributes: 200,
		ProjectBytes: [4]int64{1 << 20, 4 << 20, 8 << 20, 16 << 20}, SessionProjectBytes: 1 << 20}
}

// ProjectBytesFor is the record bound of a project of kind k in an account
// on plan p (p is ignored for guest and session projects).
func (l ModelLimits) ProjectBytesFor(k ProjectKind, p Plan) int64 {
	if k != KindAccount {
		return l.SessionProjectBytes
	}
	return l.ProjectBytes[PlanIndex(p)]
}

// CheckValues refuses an attribute one of whose free-form values is longer
// than ValueBytes, with LIMIT_REACHED naming the value and both numbers.
func (l ModelLimits) CheckValues(a *Attribute) error {
	if l.ValueBytes <= 0 || a == nil {
		return nil
	}
	check := func(what string, n int) error {
		if n > l.ValueBytes {
			return Errorf(CodeLimitReached, "attribute %q: %s has %s; the limit is %s", Truncate(a.Name, 64), what, Bytes(int64(n)), Bytes(int64(l.ValueBytes)))
		}
		return nil
	}
	n := 0
	if a.Generator != nil {
		n = len(a.Generator.Options) + len(a.Generator.Kind)
	}
	for _, err := range []error{check("constantValue", len(a.Constant)), check("computedExpression", len(a.Computed)),
		check("sourceMapping.path", len(a.SourcePath)), check("generator", n)} {
		if err != nil {
			return err
		}
	}
	return nil
}

// ProjectTooLarge is the refusal of an edit that would make a project's
// record size bytes, over limit.
func ProjectTooLarge(k ProjectKind, size, limit int64) error {
	return Errorf(CodeLimitReached, "this edit would make the %s project's model %s; the limit is %s (remove attributes, constants or tables first)",
		kindWord(k), Bytes(size), Bytes(limit))
}

func kindWord(k ProjectKind) string {
	switch k {
	case KindGuest:
		return "guest"
	case KindSession:
		return "session"
	}
	return "account"
}

// Bytes writes n as bytes, KiB or MiB, exactly when it is a whole number of them.
func Bytes(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// Size writes n as people read a file's size — "1 MB", "1.5 MB", "512 KB",
// "900 bytes" — in the plans' units (a MB is 2^20 bytes, as the
// --plan-dataset-mb flag counts).
func Size(n int64) string {
	for _, u := range []struct {
		n    int64
		name string
	}{{1 << 30, "GB"}, {1 << 20, "MB"}, {1 << 10, "KB"}} {
		if n >= u.n {
			return strings.TrimSuffix(fmt.Sprintf("%.1f", float64(n)/float64(u.n)), ".0") + " " + u.name
		}
	}
	if n == 1 {
		return "1 byte"
	}
	return fmt.Sprintf("%d bytes", n)
}
