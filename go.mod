module github.com/riskgate/riskgate

go 1.26

require (
	github.com/google/go-github/v62 v62.0.0
	github.com/urfave/cli/v3 v3.14.0
	gonum.org/v1/gonum v0.17.0
	gopkg.in/yaml.v3 v3.0.1
)

require github.com/google/go-querystring v1.1.0 // indirect
