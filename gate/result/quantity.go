package result

import (
	"github.com/riskgate/riskgate/bayes/twosample"
	"github.com/riskgate/riskgate/internal/jsonfloat"
)

// Quantity summarises one posterior quantity sampled exactly (independent
// draws: Sakai's two-system models, Zhang et al.'s classifier comparison).
type Quantity struct {
	EAP       jsonfloat.Float `json:"eap"`
	SD        jsonfloat.Float `json:"sd"`
	MCSE      jsonfloat.Float `json:"mcse"` // Monte Carlo standard error of eap (sd/√draws: the draws are independent)
	Lo        jsonfloat.Float `json:"lo"`   // equal-tailed credible interval
	Hi        jsonfloat.Float `json:"hi"`
	HDILo     jsonfloat.Float `json:"hdi_lo"`
	HDIHi     jsonfloat.Float `json:"hdi_hi"`
	Threshold jsonfloat.Float `json:"threshold"`
	PGreater  jsonfloat.Float `json:"p_greater"` // P(quantity > threshold | data)
	ROPE      QuantityROPE    `json:"rope"`
}

// QuantityROPE is the HDI+ROPE decision of a quantity.
type QuantityROPE struct {
	Lo       jsonfloat.Float `json:"lo"`
	Hi       jsonfloat.Float `json:"hi"`
	Inside   jsonfloat.Float `json:"inside"` // share of the posterior inside [lo, hi]
	Decision string          `json:"decision"`
}

func NewQuantity(q twosample.Quantity) Quantity {
	return Quantity{EAP: jsonfloat.Float(q.EAP), SD: jsonfloat.Float(q.SD), MCSE: jsonfloat.Float(q.MCSE), Lo: jsonfloat.Float(q.Lo), Hi: jsonfloat.Float(q.Hi),
		HDILo: jsonfloat.Float(q.HDILo), HDIHi: jsonfloat.Float(q.HDIHi), Threshold: jsonfloat.Float(q.Threshold), PGreater: jsonfloat.Float(q.PGreater),
		ROPE: QuantityROPE{Lo: jsonfloat.Float(q.ROPE.Lo), Hi: jsonfloat.Float(q.ROPE.Hi), Inside: jsonfloat.Float(q.ROPE.Inside), Decision: string(q.ROPE.Decision)}}
}
