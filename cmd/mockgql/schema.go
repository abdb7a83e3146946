package main

import (
	"fmt"
	"io"
	"os"
	"text/tabwriter"

	"github.com/mockgql/mockgql/graphql"
	"github.com/mockgql/mockgql/model"
)

// schemaUsage is the usage of `mockgql schema`.
const schemaUsage = "usage: mockgql schema diff OLD.graphql NEW.graphql"

// exitError ends the process with code after printing its message; the
// schema command uses it to tell breaking changes (1) from bad input (2).
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

// schemaCmd runs `mockgql schema diff OLD NEW`: it prints one line per
// change between two GraphQL schemas (as schemaChanges classifies them)
// and fails with exit status 1 when any is BREAKING, 2 when the schemas
// cannot be read, so that a CI pipeline can gate on it.
func schemaCmd(args []string, out io.Writer) error {
	if len(args) != 3 || args[0] != "diff" {
		return &exitError{code: 2, msg: schemaUsage}
	}
	old, err := os.ReadFile(args[1])
	if err != nil {
		return &exitError{code: 2, msg: err.Error()}
	}
	cur, err := os.ReadFile(args[2])
	if err != nil {
		return &exitError{code: 2, msg: err.Error()}
	}
	changes, err := graphql.DiffSchemas(string(old), string(cur))
	if err != nil {
		return &exitError{code: 2, msg: model.ErrorMessage(err)}
	}
	return printChanges(out, changes)
}

// printChanges writes the changes and a summary, and returns an exitError
// with code 1 when a change is BREAKING.
func printChanges(out io.Writer, changes []model.SchemaChange) error {
	count := map[string]int{}
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	for _, c := range changes {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", c.Criticality, c.Type, c.Path, c.Message)
		count[c.Criticality]++
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(out, "%d changes: %d breaking, %d dangerous, %d safe\n", len(changes),
		count[model.ChangeBreaking], count[model.ChangeDangerous], count[model.ChangeSafe])
	if n := count[model.ChangeBreaking]; n > 0 {
		return &exitError{code: 1, msg: fmt.Sprintf("%d breaking changes", n)}
	}
	return nil
}
