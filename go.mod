module github.com/riskgate/riskgate

go 1.26

require (
	github.com/urfave/cli/v3 v3.14.0
	gonum.org/v1/gonum v0.17.0
	gopkg.in/yaml.v3 v3.0.1
)
