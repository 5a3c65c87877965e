package printers

import (
	"regexp"
	"testing"
)

func TestUnits(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{MilliCPU(4000), "4"}, {MilliCPU(3250), "3250m"}, {MilliCPU(0), "0"}, {MilliCPU(-180), "-180m"},
		{Bytes(0), "0"}, {Bytes(500), "500"}, {Bytes(1024), "1Ki"}, {Bytes(512 * 1024 * 1024), "512Mi"},
		{Bytes(13421772800), "12.5Gi"}, {Bytes(-256 * 1024 * 1024), "-256Mi"}, {Bytes(1 << 40), "1Ti"},
		{Percent(50, 200), "25%"}, {Percent(199, 200), "99%"}, {Percent(4100, 3920), "104%"}, {Percent(0, 0), "0%"}, {Percent(5, 0), "-"},
		{Quantity("cpu", 1500), "1500m"}, {Quantity("hugepages-2Mi", 4194304), "4Mi"}, {Quantity("nvidia.com/gpu", 3), "3"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

func TestTableEscapesAndColours(t *testing.T) {
	tb := newTable("NAME", "VALUE")
	tb.add("evil\x1b[2Jname", red("90%"))
	var out stringsBuilder
	if err := tb.render(&out, false); err != nil {
		t.Fatal(err)
	}
	want := "NAME            VALUE\nevil^[[2Jname   \x1b[31m90%\x1b[0m\n"
	if out.String() != want {
		t.Errorf("got %q\nwant %q", out.String(), want)
	}
}

type stringsBuilder struct{ b []byte }

func (s *stringsBuilder) Write(p []byte) (int, error) { s.b = append(s.b, p...); return len(p), nil }
func (s *stringsBuilder) String() string              { return string(s.b) }

// TestColourKeepsAlignment: column widths ignore ANSI sequences.
func TestColourKeepsAlignment(t *testing.T) {
	tb := newTable("A", "B", "C")
	tb.add("a", red("90%"), "x")
	tb.add("b", "100000%", "y")
	var out stringsBuilder
	if err := tb.render(&out, false); err != nil {
		t.Fatal(err)
	}
	plain := regexp.MustCompile("\x1b\\[[0-9;]*m").ReplaceAllString(out.String(), "")
	want := "A   B         C\na   90%       x\nb   100000%   y\n"
	if plain != want {
		t.Errorf("without colour codes got %q, want %q", plain, want)
	}
}
