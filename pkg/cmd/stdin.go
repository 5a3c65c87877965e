package cmd

import (
	"fmt"
	"slices"
	"strings"
)

// stdinUse is a flag and the file names it was given ("-" is stdin).
type stdinUse struct {
	flag  string
	names []string
}

// stdinOnce refuses stdin ("-") given to more than one flag: it can be
// read only once, and the second reader would find it empty. An
// --add-node-file's "-=COUNT" counts as "-".
func stdinOnce(uses ...stdinUse) error {
	var flags []string
	for _, u := range uses {
		if slices.ContainsFunc(u.names, func(n string) bool { return n == "-" || strings.HasPrefix(n, "-=") }) {
			flags = append(flags, u.flag)
		}
	}
	if len(flags) < 2 {
		return nil
	}
	return usageError(fmt.Errorf("stdin (-) is given to %s: it can be read only once; save all but one of them to a file", strings.Join(flags, " and ")))
}

// stdinUses are the flags of the input and the what-if edits that may
// read stdin, with extra ones of the command (--pod-file, --script).
func stdinUses(in *InputFlags, w *WhatIfFlags, extra ...stdinUse) []stdinUse {
	uses := []stdinUse{{"-f", in.Filenames}}
	uses = append(uses, extra...)
	if w != nil {
		uses = append(uses, stdinUse{"--add-node-file", w.AddNodeFiles})
	}
	return uses
}
