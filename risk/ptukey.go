package risk

import "math"

// The studentized range distribution, ported from R's nmath ptukey.c and
// qtukey.c (Copenhaver & Holland 1988, J. Statist. Comput. Simul. 30:1–15;
// initial value from Odeh & Evans 1974, AS 70). The quadrature, its nodes,
// cut-offs and visiting order are R's, so results agree with R to rounding.

// Gauss–Legendre half-nodes and weights: 12 points in wprob, 16 in ptukey.
var (
	legendre12X = [6]float64{
		0.981560634246719250690549090149, 0.904117256370474856678465866119,
		0.769902674194304687036893833213, 0.587317954286617447296702418941,
		0.367831498998180193752691536644, 0.125233408511468915472441369464,
	}
	legendre12W = [6]float64{
		0.047175336386511827194615961485, 0.106939325995318430960254718194,
		0.160078328543346226334652529543, 0.203167426723065921749064455810,
		0.233492536538354808760849898925, 0.249147045813402785000562436043,
	}
	legendre16X = [8]float64{
		0.989400934991649932596154173450, 0.944575023073232576077988415535,
		0.865631202387831743880467897712, 0.755404408355003033895101194847,
		0.617876244402643748446671764049, 0.458016777657227386342419442984,
		0.281603550779258913230460501460, 0.950125098376374401853193354250e-1,
	}
	legendre16W = [8]float64{
		0.271524594117540948517805724560e-1, 0.622535239386478928628438369944e-1,
		0.951585116824927848099251076022e-1, 0.124628971255533872052476282192,
		0.149595988816576732081501730547, 0.169156519395002538189312079030,
		0.182603415044923588866763667969, 0.189450610455068496285396723208,
	}
)

// rangeProb is R's wprob(w, rr, cc): P(range of cc iid N(0,1) < w)^rr, from
// Hartley's form: (2Φ(w/2) − 1)^cc plus 2·cc·∫_{w/2}^{8} φ(x)(Φ(x) − Φ(x − w))^{cc−1} dx
// by 12-point Gauss–Legendre on 2 (w > 3) or 3 equal intervals.
func rangeProb(w, rr, cc float64) float64 {
	const (
		bb    = 8.0
		eps1  = -30.0
		eps2  = -50.0
		eps3  = 60.0
		wlar  = 3.0
		inv2p = 0.398942280401432677939946059934 // 1/√(2π)
	)
	half := w * 0.5
	if half >= bb {
		return 1
	}
	pr := 2*normalCDF(half) - 1
	if pr >= math.Exp(eps2/cc) {
		pr = math.Pow(pr, cc)
	} else {
		pr = 0
	}
	intervals := 3.0
	if w > wlar {
		intervals = 2
	}
	lo := half
	step := (bb - half) / intervals
	hi := lo + step
	integral := 0.0
	cc1 := cc - 1
	for wi := 1.0; wi <= intervals; wi++ {
		sum := 0.0
		a := 0.5 * (hi + lo)
		b := 0.5 * (hi - lo)
		// Nodes left to right; R stops the interval at the first node with x² > 60.
		for jj := 1; jj <= 12; jj++ {
			var j int
			var xx float64
			if jj > 6 {
				j = 12 - jj
				xx = legendre12X[j]
			} else {
				j = jj - 1
				xx = -legendre12X[j]
			}
			ac := a + b*xx
			qexpo := ac * ac
			if qexpo > eps3 {
				break
			}
			pplus := 2 * normalCDF(ac)
			pminus := 2 * normalCDF(ac-w)
			r := pplus*0.5 - pminus*0.5
			if r >= math.Exp(eps1/cc1) {
				sum += legendre12W[j] * math.Exp(-0.5*qexpo) * math.Pow(r, cc1)
			}
		}
		integral += sum * (2 * b * cc * inv2p)
		lo = hi
		hi += step
	}
	pr += integral
	if pr <= math.Exp(eps1/rr) {
		return 0
	}
	pr = math.Pow(pr, rr)
	if pr >= 1 {
		return 1
	}
	return pr
}

// PTukey is P(Q < q) for the studentized range Q of nmeans means with df
// degrees of freedom for the standard error, R's ptukey(q, nmeans, df)
// (one group, rr = 1). It integrates rangeProb(q·√(t/2)) against the density
// of t = χ²_df/df·… by 16-point Gauss–Legendre over up to 50 intervals of
// length 1, ½, ¼ or ⅛ (df ≤ 100, 800, 5000, else), stopping after the first
// interval past 1 that adds no more than 1e-14; for df > 25000 it returns
// the range distribution (df = ∞). NaN unless df ≥ 2 and nmeans ≥ 2.
func PTukey(q, nmeans, df float64) float64 {
	const rr = 1.0
	cc := nmeans
	switch {
	case math.IsNaN(q) || math.IsNaN(cc) || math.IsNaN(df):
		return math.NaN()
	case q <= 0:
		return 0
	case df < 2 || cc < 2:
		return math.NaN()
	case math.IsInf(q, 1):
		return 1
	case df > 25000:
		return rangeProb(q, rr, cc)
	}
	f2 := df * 0.5
	lg, _ := math.Lgamma(f2)
	f2lf := f2*math.Log(df) - df*math.Ln2 - lg
	f21 := f2 - 1
	ff4 := df * 0.25
	var ulen float64
	switch {
	case df <= 100:
		ulen = 1
	case df <= 800:
		ulen = 0.5
	case df <= 5000:
		ulen = 0.25
	default:
		ulen = 0.125
	}
	f2lf += math.Log(ulen)
	ans := 0.0
	for i := 1; i <= 50; i++ {
		sum := 0.0
		twa1 := float64(2*i-1) * ulen
		for jj := 1; jj <= 16; jj++ {
			var j int
			var t1, t float64
			if jj > 8 {
				j = jj - 9
				t1 = f2lf + f21*math.Log(twa1+legendre16X[j]*ulen) - (legendre16X[j]*ulen+twa1)*ff4
				t = legendre16X[j]*ulen + twa1
			} else {
				j = jj - 1
				t1 = f2lf + f21*math.Log(twa1-legendre16X[j]*ulen) + (legendre16X[j]*ulen-twa1)*ff4
				t = -(legendre16X[j] * ulen) + twa1
			}
			if t1 >= -30 {
				sum += rangeProb(q*math.Sqrt(t*0.5), rr, cc) * legendre16W[j] * math.Exp(t1)
			}
		}
		if float64(i)*ulen >= 1 && sum <= 1e-14 {
			break
		}
		ans += sum
	}
	return math.Min(ans, 1)
}

// QTukey is the p quantile of the studentized range (see PTukey), R's
// qtukey(p, nmeans, df): Odeh and Evans's approximation as the first iterate,
// then secant steps on PTukey until two iterates differ by less than 1e-4
// (at most 50), exactly as R — whose answer is within about 1e-8 relative of
// the exact quantile.
func QTukey(p, nmeans, df float64) float64 {
	const (
		eps     = 0.0001
		maxiter = 50
	)
	cc := nmeans
	switch {
	case math.IsNaN(p) || math.IsNaN(cc) || math.IsNaN(df):
		return math.NaN()
	case p < 0 || p >= 1 || df < 2 || cc < 2:
		return math.NaN()
	case p == 0:
		return 0
	}
	x0 := tukeyInitial(p, cc, df)
	v0 := PTukey(x0, cc, df) - p
	var x1 float64
	if v0 > 0 {
		x1 = math.Max(0, x0-1)
	} else {
		x1 = x0 + 1
	}
	v1 := PTukey(x1, cc, df) - p
	ans := 0.0
	for iter := 1; iter < maxiter; iter++ {
		ans = x1 - v1*(x1-x0)/(v1-v0)
		v0 = v1
		x0 = x1
		if ans < 0 {
			ans = 0
		}
		v1 = PTukey(ans, cc, df) - p
		x1 = ans
		if math.Abs(x1-x0) < eps {
			return ans
		}
	}
	return ans
}

// tukeyInitial is R's qinv (from AS 70, Odeh & Evans 1974).
func tukeyInitial(p, c, v float64) float64 {
	const (
		p0   = 0.322232421088
		q0   = 0.993484626060e-01
		p1   = -1.0
		q1   = 0.588581570495
		p2   = -0.342242088547
		q2   = 0.531103462366
		p3   = -0.204231210125
		q3   = 0.103537752850
		p4   = -0.453642210148e-04
		q4   = 0.38560700634e-02
		c1   = 0.8832
		c2   = 0.2368
		c3   = 1.214
		c4   = 1.208
		c5   = 1.4142
		vmax = 120.0
	)
	ps := 0.5 - 0.5*p
	yi := math.Sqrt(math.Log(1 / (ps * ps)))
	t := yi + ((((yi*p4+p3)*yi+p2)*yi+p1)*yi+p0)/((((yi*q4+q3)*yi+q2)*yi+q1)*yi+q0)
	if v < vmax {
		t += (t*t*t + t) / v / 4
	}
	q := c1 - c2*t
	if v < vmax {
		q += -c3/v + c4*t/v
	}
	return t * (q*math.Log(c-1) + c5)
}
