// Command tlog-verifier checks the governance transparency log's checkpoints and proofs with
// Go's own sumdb packages (golang.org/x/mod/sumdb/note and sumdb/tlog), code the project did not
// write. It reads one JSON job on stdin and answers one JSON verdict per check on stdout.
package main

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

type inclusion struct {
	Checkpoint int      `json:"checkpoint"`
	Leaf       string   `json:"leaf"`
	Index      int64    `json:"index"`
	Proof      []string `json:"proof"`
}

type consistency struct {
	Old   int      `json:"old"`
	New   int      `json:"new"`
	Proof []string `json:"proof"`
}

// root is a tree the job states without a signature (its root computed by the test from the
// records); it is numbered after the checkpoints.
type root struct {
	Size int64  `json:"size"`
	Hash string `json:"hash"`
}

type job struct {
	VerifierKey   string        `json:"verifier_key"`
	Checkpoints   []string      `json:"checkpoints"`
	Roots         []root        `json:"roots"`
	Inclusions    []inclusion   `json:"inclusions"`
	Consistencies []consistency `json:"consistencies"`
}

type verdict struct {
	OK    bool   `json:"ok"`
	Error string `json:"error,omitempty"`
}

type tree struct {
	size int64
	root tlog.Hash
}

func verdictOf(err error) verdict {
	if err != nil {
		return verdict{OK: false, Error: err.Error()}
	}
	return verdict{OK: true}
}

// openCheckpoint verifies the signed note and reads its C2SP tlog-checkpoint body.
func openCheckpoint(text string, verifier note.Verifier) (tree, error) {
	n, err := note.Open([]byte(text), note.VerifierList(verifier))
	if err != nil {
		return tree{}, err
	}
	lines := strings.Split(n.Text, "\n")
	if len(lines) != 4 || lines[3] != "" {
		return tree{}, fmt.Errorf("checkpoint body has %d lines", len(lines))
	}
	if lines[0] != verifier.Name() {
		return tree{}, fmt.Errorf("origin %q is not the key's name %q", lines[0], verifier.Name())
	}
	size, err := strconv.ParseInt(lines[1], 10, 64)
	if err != nil || size < 0 {
		return tree{}, fmt.Errorf("bad tree size %q", lines[1])
	}
	root, err := hashOf(lines[2])
	if err != nil {
		return tree{}, err
	}
	return tree{size, root}, nil
}

func hashOf(b64 string) (tlog.Hash, error) {
	var h tlog.Hash
	raw, err := base64.StdEncoding.DecodeString(b64)
	if err != nil || len(raw) != len(h) {
		return h, fmt.Errorf("bad hash %q", b64)
	}
	copy(h[:], raw)
	return h, nil
}

func hashesOf(b64s []string) ([]tlog.Hash, error) {
	hashes := make([]tlog.Hash, len(b64s))
	for i, s := range b64s {
		h, err := hashOf(s)
		if err != nil {
			return nil, err
		}
		hashes[i] = h
	}
	return hashes, nil
}

func main() {
	var j job
	if err := json.NewDecoder(os.Stdin).Decode(&j); err != nil {
		fmt.Fprintln(os.Stderr, "reading the job:", err)
		os.Exit(2)
	}
	verifier, err := note.NewVerifier(j.VerifierKey)
	if err != nil {
		fmt.Fprintln(os.Stderr, "verifier key:", err)
		os.Exit(2)
	}
	out := struct {
		Checkpoints   []verdict `json:"checkpoints"`
		Inclusions    []verdict `json:"inclusions"`
		Consistencies []verdict `json:"consistencies"`
	}{[]verdict{}, []verdict{}, []verdict{}}
	trees := make([]tree, len(j.Checkpoints))
	for i, text := range j.Checkpoints {
		t, err := openCheckpoint(text, verifier)
		trees[i] = t
		out.Checkpoints = append(out.Checkpoints, verdictOf(err))
	}
	for _, r := range j.Roots {
		h, err := hashOf(r.Hash)
		if err != nil {
			fmt.Fprintln(os.Stderr, "root:", err)
			os.Exit(2)
		}
		trees = append(trees, tree{r.Size, h})
	}
	for _, in := range j.Inclusions {
		proof, err := hashesOf(in.Proof)
		if err == nil {
			t := trees[in.Checkpoint]
			err = tlog.CheckRecord(proof, t.size, t.root, in.Index, tlog.RecordHash([]byte(in.Leaf)))
		}
		out.Inclusions = append(out.Inclusions, verdictOf(err))
	}
	for _, c := range j.Consistencies {
		proof, err := hashesOf(c.Proof)
		if err == nil {
			older, newer := trees[c.Old], trees[c.New]
			err = tlog.CheckTree(proof, newer.size, newer.root, older.size, older.root)
		}
		out.Consistencies = append(out.Consistencies, verdictOf(err))
	}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		os.Exit(2)
	}
}
