package pool

import (
	"bytes"
	"math/rand/v2"
	"testing"
	"time"
)

// FuzzEntry: the entry reader never panics, reads at most what it was
// given, and what it accepts is canonical: written again, it is the same
// bytes. Each input is read as it is and with a valid digest line in place
// of its last line, so that the fuzzer reaches the parser behind the checksum.
//
//	go test ./gate/pool -run '^$' -fuzz FuzzEntry -fuzztime 60s
func FuzzEntry(f *testing.F) {
	rng := rand.New(rand.NewPCG(11, 29))
	e := testEntry(rng, "Chal. 4", []string{"map", "P_5"}, 3)
	e.Scores[1][0] = -0.0
	e.Run = &Run{Kept: true, Path: keptRunPath("Chal. 4"), SHA256: e.Qrels.SHA256}
	e.History = append(e.History, Event{At: t0.Add(time.Hour), Action: Rescored, Label: "q2"})
	good, _ := e.encode()
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add(bytes.Replace(good, []byte("map"), []byte("m\\u00e1p"), 1))
	unknown := testEntry(rng, "x", []string{""}, 1)
	unknown.Qrels = Qrels{}
	u, _ := unknown.encode()
	f.Add(u)
	f.Fuzz(func(t *testing.T, data []byte) {
		check := func(data []byte) {
			got, err := decodeEntry("fuzz.entry", data)
			if err != nil {
				return
			}
			again, err := got.encode()
			if err != nil {
				t.Fatalf("an entry read cannot be written: %v\n%q", err, data)
			}
			if !bytes.Equal(again, data) {
				t.Fatalf("read and written again, the bytes differ:\n%q\n%q", data, again)
			}
		}
		check(data)
		if i := bytes.LastIndexByte(bytes.TrimSuffix(data, []byte("\n")), '\n'); i >= 0 {
			check(withDigest(string(data[:i+1])))
		}
	})
}

// FuzzLineage is FuzzEntry for the lineage file.
//
//	go test ./gate/pool -run '^$' -fuzz FuzzLineage -fuzztime 60s
func FuzzLineage(f *testing.F) {
	good, _ := encodeLineage([]Reign{{"bm25", t0, "v1"}, {"new \"one\"", t0.Add(time.Hour), ""}})
	f.Add(good)
	f.Add(good[:len(good)-3])
	f.Fuzz(func(t *testing.T, data []byte) {
		check := func(data []byte) {
			got, err := decodeLineage("lineage", data)
			if err != nil {
				return
			}
			again, err := encodeLineage(got)
			if err != nil || !bytes.Equal(again, data) {
				t.Fatalf("read and written again: %v\n%q\n%q", err, data, again)
			}
		}
		check(data)
		if i := bytes.LastIndexByte(bytes.TrimSuffix(data, []byte("\n")), '\n'); i >= 0 {
			check(withDigest(string(data[:i+1])))
		}
	})
}
