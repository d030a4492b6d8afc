/* Reference values of glibc's log, log2 and exp for TestGlibcMath
   (gate/trec/clog_test.go). Build and run from this directory:

     gcc -O0 -o /tmp/glibc_math glibc_math.c -lm && /tmp/glibc_math > glibc_math.txt

   Produced with gcc 12.2 and glibc 2.36 (Debian 12), the build of the
   reference trec_eval. Each line: function, argument, result, as %a. */
#include <math.h>
#include <stdio.h>
#include <stdint.h>

static uint64_t state = 0x9e3779b97f4a7c15ULL;
static double uniform(void) { /* xorshift64*, in [0, 1) */
  state ^= state >> 12; state ^= state << 25; state ^= state >> 27;
  return (double)((state * 0x2545F4914F6CDD1DULL) >> 11) / 9007199254740992.0;
}

int main(void) {
  for (int k = 1; k <= 2000; k++) printf("log2 %a %a\n", (double)k, log2((double)k));
  for (int k = 1; k <= 500; k++) printf("log %a %a\n", (double)k, log((double)k));
  for (int k = 1; k <= 500; k++) {
    double x = 1.0 / k; printf("log %a %a\n", x, log(x));
    x = (1.0 + k % 17) / (1.0 + k % 23 + 0.5); printf("log %a %a\n", x, log(x));
    x = k + 0.5; printf("log2 %a %a\n", x, log2(x));
  }
  for (int i = 0; i < 600; i++) {
    double x = ldexp(0.5 + uniform() / 2, (int)(uniform() * 60) - 30); printf("log %a %a\n", x, log(x));
    x = 1 + uniform() * 10000; printf("log2 %a %a\n", x, log2(x));
    x = -12 + uniform() * 13; printf("exp %a %a\n", x, exp(x));
    x = log(1e-5 + uniform()); printf("exp %a %a\n", x, exp(x));
  }
  return 0;
}
