#!/usr/bin/env bash
# One suite (run.sh calls it under the lock): stack + controller, ACK's bootstrap, pytest, teardown.
set -uo pipefail
REPO=$1 WORK=$2 VENV=$3 SUITE=$4; shift 4
KIT=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
log() { printf '[ack-e2e %s] %s\n' "$SUITE" "$*" >&2; }
ENVF=$WORK/stack.env; rm -f "$ENVF"
# rds's and iam's bootstraps attach AWS-managed policies (SecretsManagerReadWrite, AmazonSQSFullAccess): moto knows AWS's
# managed policies only when asked to load them.
[[ $SUITE == rds || $SUITE == iam || $SUITE == lambda ]] && export MOTO_IAM_LOAD_MANAGED_POLICIES=true
(cd "$REPO" && exec node_modules/.bin/node "$KIT/stack.ts" "$ENVF") >"$WORK/stack.out" 2>&1 &
STACK_PID=$!
stop_stack() {
  for p in "${WATCH_PIDS[@]}"; do kill "$p" 2>/dev/null; done
  if kill -0 "$STACK_PID" 2>/dev/null; then
    log "stopping the stack (pid $STACK_PID)"
    [[ -n "${CONTROLLER_LOG:-}" && -f "$CONTROLLER_LOG" ]] && cp "$CONTROLLER_LOG" "$WORK/controller.log"
    kill -TERM "$STACK_PID"; wait "$STACK_PID" 2>/dev/null
  fi
  [[ -n "${STACK_DIR:-}" && -d "$STACK_DIR" ]] && { cp "$STACK_DIR"/*.log "$STACK_DIR"/*.jsonl "$WORK/" 2>/dev/null; rm -rf "$STACK_DIR"; }
}
WATCH_PIDS=()
trap stop_stack EXIT
for _ in $(seq 240); do [[ -s $ENVF ]] && break; kill -0 "$STACK_PID" 2>/dev/null || break; sleep 0.5; done
[[ -s $ENVF ]] || { log "the stack did not come up:"; tail -30 "$WORK/stack.out" >&2; exit 3; }
# shellcheck disable=SC1090
source "$ENVF"
log "stack up: kubeconfig $KUBECONFIG, moto $AWS_ENDPOINT_URL, controller pid $CONTROLLER_PID"
# Every version of every served object the suite touches, for diagnosis (watch-<plural>.json).
KUBECTL=$(ls "${CROSSROLE_CACHE:-$HOME/.cache/crossrole}"/bin/kubectl-v* | tail -1)
# The suite's kinds are the served CRDs of its service's group (plus IAMRoleSelectors, in ACK's).
PLURALS=$("$KUBECTL" --kubeconfig "$KUBECONFIG" get crd \
  -o jsonpath='{range .items[*]}{.spec.group} {.spec.names.plural}{"\n"}{end}' |
  awk -v g="$SUITE.services.k8s.aws" '$1 == g || $1 == "services.k8s.aws" {print $2 "." $1}')
WATCH_PIDS=()
for pl in $PLURALS; do
  "$KUBECTL" --kubeconfig "$KUBECONFIG" get "$pl" -A -w -o json >"$WORK/watch-$pl.json" 2>/dev/null &
  WATCH_PIDS+=($!)
done
# (c) boto3 -> moto, in the controller's own account (moto's default 123456789012) and region.
export AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE AWS_SECRET_ACCESS_KEY=controller-secret
export AWS_DEFAULT_REGION=$CONTROLLER_REGION AWS_REGION=$CONTROLLER_REGION AWS_EC2_METADATA_DISABLED=true
export ACKTEST_DISABLE_CREDENTIAL_REFRESH=1 AWS_CONFIG_FILE=/dev/null AWS_SHARED_CREDENTIALS_FILE=/dev/null
unset AWS_PROFILE AWS_SESSION_TOKEN
# The IRS test reads the cross-account role's keys (CARM_AWS_*) that ACK's CI passes in: here
# sts:AssumeRole in moto for the role the test names (moto maps them to its account).
eval "$("$VENV/bin/python" - <<'PY'
import boto3
c = boto3.client("sts").assume_role(RoleArn="arn:aws:iam::637423602339:role/ack-carm-role-DO-NOT-DELETE", RoleSessionName="ack-e2e")["Credentials"]
print(f"export CARM_AWS_ACCESS_KEY_ID={c['AccessKeyId']} CARM_AWS_SECRET_ACCESS_KEY={c['SecretAccessKey']} CARM_AWS_SESSION_TOKEN={c['SessionToken']}")
PY
)"
cd "$WORK/src/test/e2e"
# (d) the suite's own bootstrap, as ACK's pytest-local-runner.sh runs it.
log "bootstrap (service_bootstrap.py)"
if ! PYTHONPATH=.. timeout 600 "$VENV/bin/python" service_bootstrap.py >>"$WORK/bootstrap.log" 2>&1; then
  log "bootstrap FAILED; see $WORK/bootstrap.log"; tail -20 "$WORK/bootstrap.log" >&2; exit 4
fi
# (e) pytest, per-suite and per-test limits, junit XML.
log "pytest $*"
PYTHONPATH=.. timeout --signal=INT --kill-after=60 "${SUITE_TIMEOUT:-840}" "$VENV/bin/pytest" \
  -n "${PYTEST_WORKERS:-4}" --dist load -p no:cacheprovider --timeout "${TEST_TIMEOUT:-600}" \
  -o junit_family=xunit1 --junitxml="$WORK/junit.xml" -rA --tb=short \
  --log-level INFO "$@" >"$WORK/pytest.log" 2>&1
RC=$?
"$VENV/bin/python" "$KIT/aws_tags.py" "$SUITE" >"$WORK/aws-tags.json" 2>/dev/null
log "pytest exit $RC; $(tail -1 "$WORK/pytest.log")"
exit $RC
