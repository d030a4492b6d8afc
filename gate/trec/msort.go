package trec

// glibcMsort sorts s as glibc's qsort sorts it (stdlib/msort.c,
// msort_with_tmp, glibc ≤ 2.36 and again from 2.39: the build of the
// reference trec_eval): a top-down merge sort that splits n into n/2 and
// n − n/2 and takes the left element while cmp(left, right) ≤ 0. With a
// comparator that is not a strict weak order (trec_eval's gain comparator,
// its score comparator on NaN) the result depends on exactly these steps,
// so they are reproduced; tmp is scratch space of capacity ≥ len(s).
func glibcMsort[T any](s, tmp []T, cmp func(a, b *T) int) {
	if len(s) <= 1 {
		return
	}
	n1 := len(s) / 2
	glibcMsort(s[:n1], tmp, cmp)
	glibcMsort(s[n1:], tmp, cmp)
	tmp = tmp[:0]
	i, j := 0, n1
	for i < n1 && j < len(s) {
		if cmp(&s[i], &s[j]) <= 0 {
			tmp = append(tmp, s[i])
			i++
		} else {
			tmp = append(tmp, s[j])
			j++
		}
	}
	tmp = append(tmp, s[i:n1]...)
	copy(s, tmp) // the rest of the right half is already in place
}
