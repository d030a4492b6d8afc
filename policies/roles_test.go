package policies

import (
	"slices"
	"strings"
	"testing"
)

var rb04Systems = []string{"Champion", "Chal. 1", "Chal. 2", "Chal. 3", "Chal. 4", "input.apl04rsTDNfw", "input.fub04De", "input.uogRobLWR10"}

func TestRolesResearchExample(t *testing.T) {
	p, err := Load("examples/research.yaml")
	if err != nil {
		t.Fatal(err)
	}
	r, err := p.Roles(rb04Systems)
	if err != nil {
		t.Fatal(err)
	}
	if r.Champion != "Champion" || !slices.Equal(r.Challengers, []string{"Chal. 1", "Chal. 2", "Chal. 3", "Chal. 4"}) ||
		!slices.Equal(r.Artifacts, []string{"input.apl04rsTDNfw", "input.fub04De", "input.uogRobLWR10"}) {
		t.Errorf("roles %+v", r)
	}
}

func TestRolesErrors(t *testing.T) {
	base := "version: 1\nname: r\nrules: [{id: a, quantity: wins, at_least: 1}]\n"
	for _, c := range []struct {
		name, extra string
		systems     []string
		want        string
	}{
		{"no champion", "", rb04Systems, "r.yaml: no champion: name it in the policy (champion: NAME) or with --champion"},
		{"no challengers", "champion: Champion\n", rb04Systems, "r.yaml: no challengers:"},
		{"champion absent", "champion: Champoin\nchallengers: [x]\n", rb04Systems, `r.yaml:4:11: champion "Champoin" is not in the data; did you mean "Champion"? (systems: "Champion", "Chal. 1",`},
		{"pattern matches nothing", "champion: Champion\nchallengers: [\"Chal. 1\", \"cand-*\"]\n", rb04Systems, `r.yaml:5:26: challenger "cand-*" matches no system in the data other than the champion (systems:`},
		{"name typo", "champion: Champion\nchallengers: [\"Chal 1\"]\n", rb04Systems, `r.yaml:5:15: challenger "Chal 1" matches no system in the data other than the champion; did you mean "Chal. 1"?`},
		{"glob matches only the champion", "champion: Champion\nchallengers: [\"Champ*\"]\n", rb04Systems, `challenger "Champ*" matches no system in the data other than the champion`},
		{"many systems listed briefly", "champion: X\nchallengers: [y]\n", append(slices.Clone(rb04Systems), "a", "b", "c", "d"), `"input.uogRobLWR10", "a", "b", … and 2 more)`},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := Parse("r.yaml", []byte(base+c.extra))
			if err != nil {
				t.Fatal(err)
			}
			_, err = p.Roles(c.systems)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v, want %q", err, c.want)
			}
		})
	}
}

// A command-line override has no position in the file; a literal challenger
// equal to the champion is refused there too.
func TestRolesOverride(t *testing.T) {
	p := Default()
	p.Champion, p.ChampionPos = "Champion", Pos{}
	p.Challengers = []Pattern{{Text: "Chal. *"}}
	r, err := p.Roles(rb04Systems)
	if err != nil || len(r.Challengers) != 4 || len(r.Artifacts) != 3 {
		t.Fatalf("%+v %v", r, err)
	}
	p.Challengers = []Pattern{{Text: "Champion"}}
	if _, err := p.Roles(rb04Systems); err == nil || err.Error() != `default policy: "Champion" is the champion; a system cannot also be a challenger` {
		t.Errorf("got %v", err)
	}
	// The default policy's roles are not in the data: the message points to the flags.
	_, err = Default().Roles(rb04Systems)
	if err == nil || err.Error() != `default policy: champion "production" is not in the data (systems: "Champion", "Chal. 1", "Chal. 2", "Chal. 3", "Chal. 4", "input.apl04rsTDNfw", "input.fub04De", "input.uogRobLWR10"); set it with --champion` {
		t.Errorf("got %v", err)
	}
	// A glob may cover the champion: it is simply not a challenger.
	p.Challengers = []Pattern{{Text: "*"}}
	r, err = p.Roles(rb04Systems)
	if err != nil || len(r.Challengers) != 7 || len(r.Artifacts) != 0 {
		t.Errorf("%+v %v", r, err)
	}
}
