package termtext

import "testing"

func TestTextAndLine(t *testing.T) {
	for _, tc := range []struct {
		name, in, text, line string
	}{
		{"plain", "web-0 café", "web-0 café", "web-0 café"},
		{"ANSI colour", "a\x1b[31mb", "a^[[31mb", "a^[[31mb"},
		{"OSC 52 with BEL", "\x1b]52;c;aGk=\x07", `^[]52;c;aGk=\x07`, `^[]52;c;aGk=\x07`},
		{"C1 CSI", "x\u009b31m", `x\x9b31m`, `x\x9b31m`},
		{"newline kept by Text only", "a\nforged", "a\nforged", "a forged"},
		{"CR as kubectl", "a\rb", `a\rb`, "a b"},
		{"CRLF", "a\r\nb", `a\r` + "\nb", "a b"},
		{"tab kept", "a\tb", "a\tb", "a\tb"},
		{"DEL and NUL", "a\x7f\x00", `a\x7f\x00`, `a\x7f\x00`},
		{"not UTF-8", "a\xffb\x9b", `a\xffb\x9b`, `a\xffb\x9b`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Text(tc.in); got != tc.text {
				t.Errorf("Text(%q) = %q, want %q", tc.in, got, tc.text)
			}
			if got := Line(tc.in); got != tc.line {
				t.Errorf("Line(%q) = %q, want %q", tc.in, got, tc.line)
			}
			if got := Text(Text(tc.in)); got != Text(tc.in) {
				t.Errorf("Text is not idempotent: %q", got)
			}
		})
	}
}

// TestFold: one subject prints the message alone; more add a count and up
// to three names, then "…".
func TestFold(t *testing.T) {
	for _, tc := range []struct {
		subjects []string
		want     string
	}{
		{nil, "msg a"},
		{[]string{"a"}, "msg a"},
		{[]string{"a", "b"}, "msg a (and 1 more: b)"},
		{[]string{"a", "b", "c", "d"}, "msg a (and 3 more: b, c, d)"},
		{[]string{"a", "b", "c", "d", "e\x1b"}, "msg a (and 4 more: b, c, d, …)"},
		{[]string{"a", "b\nx"}, "msg a (and 1 more: b x)"},
	} {
		if got := Fold("msg a", tc.subjects); got != tc.want {
			t.Errorf("Fold(%q) = %q, want %q", tc.subjects, got, tc.want)
		}
	}
}

// TestCount: the noun agrees with the count at 0, 1 and more, regular
// English plurals of the last word.
func TestCount(t *testing.T) {
	for _, tc := range []struct {
		n          int
		noun, want string
	}{
		{0, "pod", "0 pods"},
		{1, "pod", "1 pod"},
		{2, "pod", "2 pods"},
		{1, "pending pod", "1 pending pod"},
		{5000, "pending pod", "5000 pending pods"},
		{2, "PriorityClass", "2 PriorityClasses"},
		{2, "index", "2 indexes"},
		{2, "batch", "2 batches"},
		{2, "policy", "2 policies"},
		{2, "day", "2 days"},
		{1, "policy", "1 policy"},
	} {
		if got := Count(tc.n, tc.noun); got != tc.want {
			t.Errorf("Count(%d, %q) = %q, want %q", tc.n, tc.noun, got, tc.want)
		}
	}
	if got := Agree(1, "was", "were") + " " + Agree(3, "was", "were"); got != "was were" {
		t.Errorf("Agree: %q", got)
	}
}
