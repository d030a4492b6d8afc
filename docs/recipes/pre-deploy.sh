#!/bin/sh
# pre-deploy.sh: run riskgate before a deployment; exits 0 only when the
# challenger may ship. Usage: pre-deploy.sh [riskgate gate arguments] && ./deploy.sh
#   RISKGATE_POLICY               policy file (default riskgate-policy.yaml)
#   RISKGATE_OUT                  report directory (default riskgate-report)
#   RISKGATE_ALLOW_INCONCLUSIVE   yes to deploy on an inconclusive verdict
set -u
policy="${RISKGATE_POLICY:-riskgate-policy.yaml}"
out="${RISKGATE_OUT:-riskgate-report}"

status=0
riskgate gate --policy "$policy" --out "$out" "$@" || status=$?

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
