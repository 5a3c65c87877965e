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
