package jsonlist

import (
	"errors"
	"strings"
	"testing"
)

func TestEach(t *testing.T) {
	var got []string
	in := `{"apiVersion":"v1","items":[{"kind":"Node"},{"kind":"Pod","x":[1,2]}],"kind":"List"}`
	if err := Each(strings.NewReader(in), func(item []byte) error { got = append(got, string(item)); return nil }); err != nil {
		t.Fatal(err)
	}
	if want := []string{`{"kind":"Node"}`, `{"kind":"Pod","x":[1,2]}`}; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("items = %q, want %q", got, want)
	}
	stop := errors.New("stop")
	if err := Each(strings.NewReader(in), func([]byte) error { return stop }); err != stop {
		t.Errorf("fn's error: got %v", err)
	}
	for _, bad := range []string{`[]`, `{"items":{}}`, `{"items":[{]}`} {
		if err := Each(strings.NewReader(bad), func([]byte) error { return nil }); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}
