// Package pipeline is the one route from a command's input to its answer,
// shared by every command of pkg/cmd:
//
//	Source (files or a live cluster, what the input flags open)
//	  → the kube-scheduler version, decided before the model is built
//	    (Choose: --kube-version, the live server's version, or the nodes'
//	    kubelets for files, read from the nodes before the first pod)
//	  → the cache model, built while the input is read (Open)
//	  → the what-if edits, input → input (Request.Edit), before the build
//	  → the engine and its verdicts (Evaluate, Changes)
//
// Every note and warning on the way is data (Notes), never printed here:
// the command prints them, and the report puts the same lines on its page.
// pkg/cmd holds the command line (flags, Complete/Validate/Run, printing);
// this package holds what runs between the flags and the printers.
package pipeline
