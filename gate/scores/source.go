package scores

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"time"

	"github.com/riskgate/riskgate/internal/inputerr"
)

// Roles of a Source.
const (
	RoleScores    = "scores" // a score file or a TREC run
	RoleQrels     = "qrels"
	RoleJudgments = "judgments" // a filled-in judging worklist (--judgments)
)

// Source is one input as Load read it. SHA256 and Bytes are of exactly the
// bytes the parser was given (a byte order mark included): the digest is
// taken as the parser reads, so provenance can never name a file other than
// the one judged. A regular file is also checked not to change while it is
// read — its size and modification time when opened, when read to the end,
// and the number of bytes read must agree, and its path must still name the
// same file — and Verify checks it again later.
type Source struct {
	Role   string // RoleScores, RoleQrels or RoleJudgments
	Path   string // as given; "-" is standard input
	SHA256 string // lower-case hex
	Bytes  int64
	// Run is, for a TREC run, the system it was scored as (its run_id, else
	// its file name); "" for every other input.
	Run string
	// Regular is true for a regular file. Standard input and pipes (bash's
	// <(command)) are read once: their digest is of what was read, and
	// Verify cannot check them again.
	Regular bool
	// info is the file when it was first opened.
	info fs.FileInfo
}

// Verify checks that a regular file is still the one Load read: the path
// names the same file (device and inode), of the same size and
// modification time, and its bytes have the same SHA-256 (read once more).
// A change gives an *inputerr.Error, which the command line reports with exit
// status 2; standard input and pipes are not checked, nor is a Source that
// LoadSources did not return.
func (s Source) Verify() error {
	if !s.Regular || s.info == nil {
		return nil
	}
	fi, err := os.Stat(s.Path)
	if err != nil {
		return inputerr.At(s.Path, 0, "the file changed during the run (%v); expected it unchanged until riskgate ends", unwrapPath(err))
	}
	if what := changed(s.info, fi); what != "" {
		return changedError(s.Path, what)
	}
	f, err := os.Open(s.Path)
	if err != nil {
		return inputerr.At(s.Path, 0, "the file changed during the run (%v); expected it unchanged until riskgate ends", unwrapPath(err))
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return inputerr.At(s.Path, 0, "read error: %v", err)
	}
	if sum := hex.EncodeToString(h.Sum(nil)); n != s.Bytes || sum != s.SHA256 {
		return changedError(s.Path, fmt.Sprintf("it now holds %d bytes of SHA-256 %.12s…, not the %d bytes of %.12s… read", n, sum, s.Bytes, s.SHA256))
	}
	return nil
}

// VerifySources verifies each source (see Source.Verify) and returns the
// first change found.
func VerifySources(sources []Source) error {
	for _, s := range sources {
		if err := s.Verify(); err != nil {
			return err
		}
	}
	return nil
}

func changedError(path, what string) error {
	return inputerr.At(path, 0, "the file changed during the run (%s); expected it unchanged until riskgate ends", what)
}

// changed says how the file b differs from a, which it should be; "" when
// it does not.
func changed(a, b fs.FileInfo) string {
	switch {
	case !os.SameFile(a, b):
		return "the path now names another file"
	case a.Size() != b.Size():
		return fmt.Sprintf("size %d bytes, then %d", a.Size(), b.Size())
	case !a.ModTime().Equal(b.ModTime()):
		return fmt.Sprintf("modified at %s, then at %s", a.ModTime().Format(time.RFC3339Nano), b.ModTime().Format(time.RFC3339Nano))
	}
	return ""
}

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// tracked is an input being read once: it hashes and counts the bytes as
// they are read and tells, once the parser is done, whether a regular file
// changed meanwhile.
type tracked struct {
	src    Source
	r      io.Reader
	closer io.Closer
	file   *os.File // a regular file, else nil
	h      hash.Hash
	// want is the file as first opened, which it must still be.
	want       fs.FileInfo
	started    bool
	beforeRead func(path, role string) // see opener
	// budget, when set, is charged cost bytes per byte read (a pipe, whose
	// size is not known before), and overBudget is its refusal.
	budget     *loadBudget
	cost       float64
	overBudget error
}

// opener opens the inputs of one Load to be read once (open).
type opener struct {
	stdin io.Reader // read for the path "-"; nil when not available
	// beforeRead, when not nil, is called before the first read of each
	// file with its path and role (LoadOptions.beforeRead).
	beforeRead func(path, role string)
}

// open opens path (the path "-" is the opener's stdin) to be read once as
// role. want, when not nil, is the file as an earlier opening found it: a
// different file, size or modification time now is refused.
func (o opener) open(path, role string, want fs.FileInfo) (*tracked, error) {
	t := &tracked{src: Source{Role: role, Path: path}, h: sha256.New(), want: want, beforeRead: o.beforeRead}
	stdin := o.stdin
	if path == "-" {
		if stdin == nil {
			return nil, inputerr.At(StdinName, 0, "standard input is not available here; expected a file path")
		}
		t.r = stdin
		return t, nil
	}
	if want != nil {
		// Reopening: a named pipe put where the file was would block the
		// open until a writer came, so look before opening.
		if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
			return nil, changedError(path, "the path now names something other than a regular file")
		}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, inputerr.At(path, 0, "cannot open: %v", unwrapPath(err))
	}
	t.r, t.closer = f, f
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, inputerr.At(path, 0, "cannot open: %v", unwrapPath(err))
	}
	if !fi.Mode().IsRegular() {
		if want != nil { // a pipe put where the file was
			f.Close()
			return nil, changedError(path, "the path now names something other than a regular file")
		}
		return t, nil
	}
	if want != nil {
		if what := changed(want, fi); what != "" {
			f.Close()
			return nil, changedError(path, what)
		}
	} else {
		t.want = fi
	}
	t.file = f
	t.src.Regular, t.src.info = true, t.want
	return t, nil
}

func (t *tracked) Read(p []byte) (int, error) {
	if !t.started {
		t.started = true
		if t.beforeRead != nil {
			t.beforeRead(t.src.Path, t.src.Role)
		}
	}
	if t.overBudget != nil {
		return 0, t.overBudget
	}
	n, err := t.r.Read(p)
	if n > 0 {
		t.h.Write(p[:n])
		t.src.Bytes += int64(n)
		if berr := t.budget.charge(t.name(), float64(n)*t.cost); berr != nil {
			t.overBudget = berr
			return n, berr
		}
	}
	return n, err
}

// Stat lets gate/trec size its tables from the file's size.
func (t *tracked) Stat() (fs.FileInfo, error) {
	if t.file == nil {
		return nil, errors.New("not a regular file")
	}
	return t.want, nil
}

// name is the input's name in messages.
func (t *tracked) name() string {
	if t.src.Path == "-" {
		return StdinName
	}
	return t.src.Path
}

func (t *tracked) close() {
	if t.closer != nil {
		t.closer.Close()
		t.closer = nil
	}
}

// finish reads whatever the parser left (the parsers read to the end, so
// this finds only bytes appended meanwhile), checks that a regular file did
// not change while it was read, and returns its Source.
func (t *tracked) finish() (Source, error) {
	if _, err := io.Copy(io.Discard, t); err != nil {
		return Source{}, inputerr.At(t.src.Path, 0, "read error: %v", err)
	}
	if err := t.check(true); err != nil {
		return Source{}, err
	}
	t.src.SHA256 = hex.EncodeToString(t.h.Sum(nil))
	return t.src, nil
}

// check says how a regular file changed since it was opened: its size and
// modification time now, by its descriptor and by its path, and, once it is
// read whole, the number of bytes read must all be as when it was opened.
func (t *tracked) check(whole bool) error {
	if t.file == nil {
		return nil
	}
	now, err := t.file.Stat()
	if err != nil {
		return inputerr.At(t.src.Path, 0, "read error: %v", unwrapPath(err))
	}
	if what := changed(t.want, now); what != "" {
		return changedError(t.src.Path, what)
	}
	if whole && t.src.Bytes != t.want.Size() {
		return changedError(t.src.Path, fmt.Sprintf("%d bytes read from a file of %d", t.src.Bytes, t.want.Size()))
	}
	byPath, err := os.Stat(t.src.Path)
	if err != nil {
		return changedError(t.src.Path, unwrapPath(err).Error())
	}
	if what := changed(t.want, byPath); what != "" {
		return changedError(t.src.Path, what)
	}
	return nil
}

// orChanged returns how a regular file changed since it was opened, if it
// did, instead of err: a parse error in a file rewritten while it was read
// is only a symptom.
func (t *tracked) orChanged(err error) error {
	if t.overBudget != nil {
		return t.overBudget // whatever the parser made of it
	}
	if cerr := t.check(false); cerr != nil {
		return cerr
	}
	return err
}
