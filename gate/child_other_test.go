//go:build !linux

package gate

const childASLimitEnv = "RISKGATE_TEST_AS_LIMIT"

// limitAddressSpace is a no-op where RLIMIT_AS is not Linux's.
func limitAddressSpace() {}
