// Package startup does, while the process's packages initialize, what main
// would do too late. main imports it (blank) and nothing else does: a
// program embedding pkg/cmd keeps its own settings.
//
// Go initializes, at each step, the first package in import-path order
// whose imports are all initialized. This package imports only kubectl's
// i18n package, and github.com/schedcache/… sorts before k8s.io/…, so it
// runs right after i18n, before kubectl's get package.
//
// It keeps kubectl's translation catalogue from loading. The get package,
// linked for its custom-columns printer, translates its help texts while
// it initializes (i18n.T), and the first translation loads the catalogue
// of the user's language: kubectl v0.36 zips the .po and .mo files in
// memory and parses them back, 4 MB and a third of the start of every
// command, for texts the plugin never shows. Without a catalogue i18n.T
// returns its text, the English kubectl shows by default.
// docs/PERFORMANCE.md, "Start", has the measurements.
package startup

import "k8s.io/kubectl/pkg/util/i18n"

func init() {
	// The only error is "already loaded": some package translated a text
	// before this one ran, and the catalogue is there either way.
	_ = i18n.SetLoadTranslationsFunc(func() error { return nil })
}
