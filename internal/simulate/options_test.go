package simulate

import (
	"strings"
	"testing"
	"time"
)

func TestAutoUntil(t *testing.T) {
	tests := []struct {
		ttl, latency, period, want time.Duration
		zeroExpires                bool
	}{
		{0, DefaultBindLatency, time.Second, time.Minute, false},
		{30 * time.Second, DefaultBindLatency, time.Second, time.Minute, false},
		{2 * time.Minute, DefaultBindLatency, time.Second, 2*time.Minute + time.Second, false},
		{15 * time.Minute, DefaultBindLatency, time.Second, 15*time.Minute + time.Second, false},
		{15 * time.Minute, 0, time.Second, 15*time.Minute + time.Second, false},
		{90 * time.Second, 0, 7 * time.Second, 91 * time.Second, false},
		// Before v1.25 a TTL of 0 expires at the first tick after binding.
		{0, DefaultBindLatency, time.Second, time.Minute, true},
		{0, 90 * time.Second, time.Second, 91 * time.Second, true},
	}
	for _, tc := range tests {
		if got := AutoUntil(tc.ttl, tc.latency, tc.period, !tc.zeroExpires); got != tc.want {
			t.Errorf("AutoUntil(%s, %s, %s, zero expires %v) = %s, want %s", tc.ttl, tc.latency, tc.period, tc.zeroExpires, got, tc.want)
		}
	}
}

func TestOptionsValidate(t *testing.T) {
	tests := []struct {
		name    string
		opts    Options
		wantErr string
	}{
		{"zero value", Options{}, ""},
		{"negative ttl", Options{TTL: TTLChoice{TTL: -1}}, "TTL must not be negative"},
		{"negative latency", Options{BindLatency: -1}, "bind latency must not be negative"},
		{"negative period", Options{CleanupPeriod: -1}, "cleanup period must not be negative"},
		{"negative until", Options{Until: -1}, "timeline length must not be negative"},
		{"bad outcome", Options{Bind: "maybe"}, `unknown binding outcome "maybe" (want confirm, fail, lost)`},
		{"too many ticks", Options{Until: time.Hour, CleanupPeriod: time.Millisecond}, "3600000 cleanup ticks, more than 1000000"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.opts.Validate()
			switch {
			case tc.wantErr == "" && err != nil:
				t.Errorf("unexpected error %v", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Errorf("error %v, want one containing %q", err, tc.wantErr)
			}
		})
	}
}

// TestResolveTTL checks the TTL and the exact note for each source.
func TestResolveTTL(t *testing.T) {
	d := func(s string) *time.Duration { v, _ := time.ParseDuration(s); return &v }
	tests := []struct {
		name          string
		flag          *time.Duration
		version       string // "" is the default, v1.36
		why           string
		ttl           time.Duration
		note, wantErr string
	}{
		{"--ttl", d("30s"), "v1.30", "", 30 * time.Second,
			"note: TTL 30s (--ttl); assumed pods whose binding finished expire 30s later", ""},
		{"--ttl 0", d("0s"), "", "", 0, "note: TTL 0 (--ttl): assumed pods never expire", ""},
		{"--ttl 0 v1.18", d("0s"), "v1.18", "", 0,
			"note: TTL 0 (--ttl, kube-scheduler v1.18): assumed pods whose binding finished expire at the next cleanup", ""},
		{"--ttl 0 v1.25", d("0s"), "v1.25", "", 0, "note: TTL 0 (--ttl): assumed pods never expire", ""},
		{"v1.19", nil, "v1.19", "", 30 * time.Second,
			"note: TTL 30s (kube-scheduler v1.19 default); assumed pods whose binding finished expire 30s later", ""},
		{"v1.22.5 server", nil, "v1.22.5", "from the server version", 2 * time.Minute,
			"note: TTL 2m0s (kube-scheduler v1.22.5 default, from the server version); assumed pods whose binding finished expire 2m0s later", ""},
		{"v1.23", nil, "1.23", "", 15 * time.Minute,
			"note: TTL 15m0s (kube-scheduler v1.23 default); assumed pods whose binding finished expire 15m0s later", ""},
		{"v1.30", nil, "v1.30", "", 0, "note: TTL 0 (kube-scheduler v1.30 default, as in 1.25–1.35): assumed pods never expire", ""},
		{"v1.36", nil, "v1.36.3", "", 0, "note: TTL 0 (kube-scheduler v1.36.3 default: assumed pods never expire; v1.36 removed expiry)", ""},
		{"latest", nil, "", "no --kube-version", 0,
			"note: TTL 0 (latest kube-scheduler default, no --kube-version: assumed pods never expire; v1.36 removed expiry)", ""},
		{"negative", d("-1s"), "", "", 0, "", "must not be negative"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, given := latest, tc.version != ""
			if given {
				b = behavior(t, tc.version)
			}
			c, err := ResolveTTL(tc.flag, b, given, tc.why)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Errorf("error %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.TTL != tc.ttl || c.Note() != tc.note {
				t.Errorf("TTL %s, note %q\nwant %s, %q", c.TTL, c.Note(), tc.ttl, tc.note)
			}
		})
	}
}
