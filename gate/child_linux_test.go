//go:build linux

package gate

import (
	"os"
	"strconv"
	"syscall"
)

// childASLimitEnv asks the test binary, run as riskgate (doctestMainEnv),
// to limit its own address space to this many bytes first (RLIMIT_AS, as
// prlimit --as does), so that a child that would grow without bound dies of
// it — with Go's "fatal error: out of memory" and a stack trace — instead of
// taking the machine's memory.
const childASLimitEnv = "RISKGATE_TEST_AS_LIMIT"

// limitAddressSpace applies childASLimitEnv, if set, to this process.
func limitAddressSpace() {
	n, err := strconv.ParseUint(os.Getenv(childASLimitEnv), 10, 64)
	if err != nil || n == 0 {
		return
	}
	if err := syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: n, Max: n}); err != nil {
		panic(err)
	}
}
