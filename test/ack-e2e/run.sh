#!/usr/bin/env bash
# ACK's own pytest e2e suites, unchanged, against crossrole (README.md beside this file).
# usage: npm run test:ack-e2e -- SUITE[,SUITE...] [pytest selection...]
#   SUITE:      s3 | sqs | sns | dynamodb | rds | ecr | cloudwatchlogs | iam | secretsmanager | kms | ec2 | lambda (several, comma-separated: one after the other,
#               each on its own fresh stack)
#   selection:  test files or node ids relative to the suite's test/e2e (one suite only;
#               default: the test files of the kinds crossrole serves, DEFAULT_TESTS below)
# env: ACK_MIRROR  a directory of bare clones named aws-controllers-k8s+<repo>/repo (test-infra and
#                  each suite's controller); without it they are cloned from github.com into the cache
#      OUT (results, default /tmp/ack-e2e-results), ACK_E2E_CACHE (default ~/.cache/crossrole/ack-e2e),
#      SUITE_TIMEOUT (s, default 840), TEST_TIMEOUT (s per test, default 600), PYTEST_WORKERS
#      (xdist workers, default 4), HEAVY_LOCK (a lock file held for the run, default /tmp/heavy.lock),
#      RUN_NAME (results subdirectory, default SUITE; one suite only)
set -euo pipefail
KIT=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$KIT/../.." && pwd)
[[ $# -ge 1 ]] || { sed -n 3,14p "${BASH_SOURCE[0]}" >&2; exit 2; }
IFS=, read -r -a SUITES <<<"$1"; shift
OUT=${OUT:-/tmp/ack-e2e-results}
CACHE=${ACK_E2E_CACHE:-${CROSSROLE_CACHE:-$HOME/.cache/crossrole}/ack-e2e}
ACKTEST_COMMIT=ee58accba9ff98b647f99d1a4c071a08ecbf748f   # what s3/sqs/rds pin; a superset of sns's/dynamodb's pins
declare -A TAG=([s3]=v1.10.0 [sqs]=v1.6.1 [sns]=v1.6.0 [dynamodb]=v1.9.2 [rds]=v1.11.1 [ecr]=v1.8.1 [cloudwatchlogs]=v1.4.1 [iam]=v1.8.1 [secretsmanager]=v1.4.1 [kms]=v1.4.1 [ec2]=v1.20.0 [lambda]=v1.14.1)
# Test files for the kinds crossrole serves (other kinds' files: README.md, "Not run"). ec2's
# subnet tests give three subnets one CIDR block in one VPC: run them with PYTEST_WORKERS=1.
declare -A DEFAULT_TESTS=(
  [s3]="tests/test_bucket.py tests/test_bucket_adoption_policy.py tests/test_bucket_deletion_policy.py"
  [sqs]="tests/test_queue.py tests/test_queue_irs.py"
  [sns]="tests/test_topic.py"
  [dynamodb]="tests/test_table.py tests/test_table_replicas.py"
  [rds]="tests/test_db_subnet_group.py tests/test_db_parameter_group.py tests/test_db_cluster.py tests/test_db_cluster_parameter_group.py tests/test_db_instance.py tests/test_db_instance_adopt.py"
  [ecr]="tests/test_repository.py tests/test_cross_account.py tests/test_cross_region.py"
  [cloudwatchlogs]="tests/test_log_group.py"
  [iam]="tests/test_role.py tests/test_policy.py tests/test_references.py tests/test_descriptions.py"
  [secretsmanager]="tests/test_secret.py"
  [kms]="tests/test_key.py tests/test_alias.py"
  [ec2]="tests/test_vpc.py tests/test_subnet.py tests/test_security_group.py"
  [lambda]="tests/test_function.py"
)
# Controller flags ACK's CI (test-infra scripts/controller-setup.sh) sets for a suite: the IRS
# test runs with FEATURE_GATES=IAMRoleSelector=true and ENABLE_CARM=false. iam's
# test_role_policy_namespace_references names a Policy in another namespace, which ACK's runtime
# follows by default and crossrole only with --allow-cross-namespace-references (docs/ack-e2e.md).
declare -A EXTRA_ARGS=(
  [sqs]="--feature-gates=IAMRoleSelector=true --enable-carm=false"
  [iam]="--allow-cross-namespace-references"
)
log() { printf '[ack-e2e] %s\n' "$*" >&2; }

# The stack with kube-controller-manager and kubectl (optimised builds, as the tests use), then
# npm and moto: in this order the main job's unoptimised builds are never made besides them.
bash "$REPO/scripts/build-control-plane.sh"
bash "$REPO/scripts/ensure-deps.sh" main

# A bare clone of aws-controllers-k8s/<repo>: from ACK_MIRROR, else cloned once into the cache.
repo_of() {
  local name=$1
  if [[ -n "${ACK_MIRROR:-}" ]]; then
    local dir="$ACK_MIRROR/aws-controllers-k8s+$name/repo"
    [[ -d $dir ]] || { log "FAILED: $dir is missing (ACK_MIRROR holds no $name)"; exit 2; }
    echo "$dir"
    return
  fi
  local dir="$CACHE/repos/$name.git"
  [[ -d $dir ]] || git clone --quiet --bare "https://github.com/aws-controllers-k8s/$name" "$dir" >&2
  echo "$dir"
}

# The venv: acktest from test-infra at the pinned commit + its PyPI requirements + pytest-timeout.
VENV=$CACHE/venv-$ACKTEST_COMMIT
if [[ ! -x $VENV/bin/pytest || ! -f $VENV/.ok ]]; then
  log "creating $VENV"
  rm -rf "$VENV" "$CACHE/acktest-src"
  mkdir -p "$CACHE/acktest-src"
  git --git-dir="$(repo_of test-infra)" archive "$ACKTEST_COMMIT" | tar -x -C "$CACHE/acktest-src"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q --upgrade pip
  "$VENV/bin/pip" install -q "$CACHE/acktest-src" pytest pytest-timeout
  touch "$VENV/.ok"
fi

JOBS=()
for SUITE in "${SUITES[@]}"; do
  [[ -n "${TAG[$SUITE]:-}" ]] || { log "unknown suite $SUITE (s3, sqs, sns, dynamodb, rds, ecr, cloudwatchlogs, iam, secretsmanager, kms, ec2, lambda)"; exit 2; }
  # The suite's test/e2e at its release tag, fresh and unchanged.
  NAME=$SUITE
  [[ ${#SUITES[@]} -eq 1 && -n "${RUN_NAME:-}" ]] && NAME=$RUN_NAME
  WORK=$OUT/$NAME
  rm -rf "$WORK"
  mkdir -p "$WORK/src"
  git --git-dir="$(repo_of "$SUITE-controller")" archive "${TAG[$SUITE]}" test/e2e | tar -x -C "$WORK/src"
  SEL="$*"
  [[ ${#SUITES[@]} -eq 1 && $# -gt 0 ]] || SEL=${DEFAULT_TESTS[$SUITE]}
  JOBS+=("CROSSROLE_EXTRA_ARGS=\"${CROSSROLE_EXTRA_ARGS-${EXTRA_ARGS[$SUITE]:-}}\" bash '$KIT/suite.sh' '$REPO' '$WORK' '$VENV' $SUITE $SEL")
done
SCRIPT=$(printf '%s; ' "${JOBS[@]}")
log "waiting for ${HEAVY_LOCK:-/tmp/heavy.lock}, then: ${SUITES[*]}"
flock "${HEAVY_LOCK:-/tmp/heavy.lock}" bash -c "$SCRIPT" || true
python3 "$KIT/summarize.py" "$OUT"
