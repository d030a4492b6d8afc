#!/bin/sh
# pre-deploy.sh: run riskgate before a deployment; exits 0 only when the
# challenger may ship. Usage: pre-deploy.sh [riskgate gate arguments] && ./deploy.sh
#   RISKGATE_VERSION              the riskgate release to run (default v1.2.3: pinned);
#                                 installed once, with that release's install.sh, which
#                                 checks the archive against the release's checksums.txt
#   RISKGATE_HOME                 where releases are installed (default ~/.cache/riskgate)
#   RISKGATE_POLICY               policy file (default riskgate-policy.yaml)
#   RISKGATE_OUT                  report directory (default riskgate-report)
#   RISKGATE_ALLOW_INCONCLUSIVE   yes to deploy on an inconclusive verdict
set -u
version="${RISKGATE_VERSION:-v1.2.3}"
policy="${RISKGATE_POLICY:-riskgate-policy.yaml}"
out="${RISKGATE_OUT:-riskgate-report}"
bin="${RISKGATE_HOME:-${HOME:-.}/.cache/riskgate}/$version"

if ! "$bin/riskgate" --version 2>/dev/null | grep -qx "riskgate version $version"; then
	installer="$(mktemp)" || exit 2
	if ! curl -fsSL -o "$installer" "https://raw.githubusercontent.com/riskgate/riskgate/$version/install.sh" ||
		! sh "$installer" -b "$bin" "$version"; then
		rm -f "$installer"
		echo "riskgate: could not install riskgate $version: not deploying" >&2
		exit 2
	fi
	rm -f "$installer"
fi

status=0
"$bin/riskgate" gate --policy "$policy" --out "$out" "$@" || status=$?

case "$status" in
0)
	echo "riskgate: pass: deploying"
	;;
1)
	echo "riskgate: fail: not deploying (report: $out/report.md)" >&2
	exit 1
	;;
3)
	if [ "${RISKGATE_ALLOW_INCONCLUSIVE:-no}" = yes ]; then
		echo "riskgate: inconclusive: deploying, as RISKGATE_ALLOW_INCONCLUSIVE=yes allows" >&2
	else
		echo "riskgate: inconclusive: not deploying (report: $out/report.md)" >&2
		exit 3
	fi
	;;
*)
	echo "riskgate: error (exit status $status): not deploying" >&2
	exit "$status"
	;;
esac
