package read

import "testing"

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"256Mi": 256 << 20, "1Gi": 1 << 30, "1048576": 1 << 20, "2k": 2000} {
		if got, err := ParseSize(in); err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"0", "-1Mi", "1.5", "lots", "100m"} {
		if got, err := ParseSize(in); err == nil {
			t.Errorf("ParseSize(%q) = %d, want an error", in, got)
		}
	}
}

func TestIsBinary(t *testing.T) {
	for _, tc := range []struct {
		head []byte
		full bool
		want bool
	}{
		{[]byte("kind: Pod\n"), false, false},
		{[]byte("name: café"), false, false},
		{[]byte("name: caf\xc3"), true, false}, // a rune cut by the end of the window
		{[]byte("name: caf\xc3"), false, true}, // the end of the input
		{[]byte("a\x00b"), false, true},
		{[]byte{0x89, 'P', 'N', 'G'}, false, true},
	} {
		if got := isBinary(tc.head, tc.full); got != tc.want {
			t.Errorf("isBinary(%q, %v) = %v, want %v", tc.head, tc.full, got, tc.want)
		}
	}
}
