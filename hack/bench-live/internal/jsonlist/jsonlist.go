// Package jsonlist walks the items of a `kubectl get -o json` v1 List one at
// a time, for bench-live's loader and fakeapi, which read gen-cluster files
// of up to 742 MB exactly as written (not through the plugin's own reader,
// which is what they measure).
package jsonlist

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Each calls fn with the JSON text of every item of the List that r holds,
// in order, holding one item in memory at a time. It returns the first
// error of r, of the JSON, or of fn.
func Each(r io.Reader, fn func(item []byte) error) error {
	dec := json.NewDecoder(r)
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return fmt.Errorf("not a JSON object (%v)", err)
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return err
		}
		if key != "items" {
			if err := dec.Decode(&json.RawMessage{}); err != nil {
				return err
			}
			continue
		}
		if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
			return fmt.Errorf("items is not an array (%v)", err)
		}
		for dec.More() {
			var item json.RawMessage
			if err := dec.Decode(&item); err != nil {
				return err
			}
			if err := fn(item); err != nil {
				return err
			}
		}
		if _, err := dec.Token(); err != nil { // ]
			return err
		}
	}
	if _, err := dec.Token(); err != nil && !errors.Is(err, io.EOF) { // }
		return err
	}
	return nil
}
