package main

import (
	"flag"
	"fmt"
	"os"
	"strings"
)

// envName is the environment variable of a flag: --ip-limit → MGQ_IP_LIMIT.
func envName(flagName string) string {
	return "MGQ_" + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

// parse applies MGQ_* environment variables, then the command line (which wins).
func parse(fs *flag.FlagSet, args []string) error {
	var err error
	fs.VisitAll(func(f *flag.Flag) {
		if v, ok := os.LookupEnv(envName(f.Name)); ok && err == nil {
			if e := fs.Set(f.Name, v); e != nil {
				err = fmt.Errorf("%s=%q: %w", envName(f.Name), v, e)
			}
		}
	})
	if err != nil {
		return err
	}
	return fs.Parse(args)
}

// list is a comma-separated flag value.
type list []string

func (l *list) String() string { return strings.Join(*l, ",") }

func (l *list) Set(v string) error {
	*l = nil
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			*l = append(*l, s)
		}
	}
	return nil
}
