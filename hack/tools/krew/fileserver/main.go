// Command fileserver serves a directory over HTTP on a free loopback port for
// as long as a command runs, so hack/install-check.sh can let the real krew
// download release archives (krew fetches uri fields over http(s) only)
// without any network:
//
//	fileserver -dir dist -env ARCHIVE_URL -- CMD [ARG...]
//
// CMD runs with ARCHIVE_URL=http://127.0.0.1:PORT in its environment, its
// stdin, stdout and stderr are fileserver's, and fileserver exits with its
// status once it ends. Each request is logged to stderr.
package main

import (
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/exec"
)

func main() {
	dir := flag.String("dir", ".", "directory to serve")
	envName := flag.String("env", "FILESERVER_URL", "environment variable that gives CMD the base URL")
	flag.Parse()
	if flag.NArg() == 0 {
		log.Fatal("fileserver: no command given (usage: fileserver -dir DIR -env NAME -- CMD [ARG...])")
	}
	if st, err := os.Stat(*dir); err != nil || !st.IsDir() {
		log.Fatalf("fileserver: -dir %s is not a directory", *dir)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatalf("fileserver: %v", err)
	}
	files := http.FileServer(http.Dir(*dir))
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(os.Stderr, "fileserver: %s %s\n", r.Method, r.URL.Path)
		files.ServeHTTP(w, r)
	})}
	go func() {
		if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			log.Fatalf("fileserver: %v", err)
		}
	}()

	cmd := exec.Command(flag.Arg(0), flag.Args()[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.Env = append(os.Environ(), *envName+"=http://"+ln.Addr().String())
	err = cmd.Run()
	_ = srv.Close()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		os.Exit(exit.ExitCode())
	case err != nil:
		log.Fatalf("fileserver: %v", err)
	}
}
