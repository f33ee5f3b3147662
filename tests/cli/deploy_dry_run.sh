#!/usr/bin/env bash
# The operator's manifests (deploy/) against `lws apiserver` through the real kubectl, as an
# administrator would install them on a cluster:
#   - deploy/kustomization.yaml lists exactly the manifest files of deploy/ (no file forgotten);
#   - the CRD and the Namespace are applied for real (a dry run cannot create a namespace the
#     other objects then go into), then every listed manifest applies cleanly with
#     --dry-run=server, file by file, and nothing is stored by it;
#   - deploy/local/ (webhooks at https://127.0.0.1:9443) dry-runs too, and says the same as
#     deploy/webhook/ but for clientConfig;
#   - `kubectl apply -k deploy/` (kubectl's built-in kustomize) installs it for real, and the
#     stored objects are what the manifests say (replicas, scope, webhook paths and selectors);
#   - the cert-manager component renders (CA injection annotation, internal certificates off,
#     the Secret as the certificate volume) and its non-cert-manager objects dry-run cleanly;
#   - the Helm chart rendered into another namespace dry-runs cleanly there;
#   - `kubectl delete -k deploy/` uninstalls (the namespace passes through Terminating);
#   - a client-side re-apply of changed webhook configurations (a strategic merge patch with
#     $setElementOrder/webhooks) merges the webhooks by name (it once made the server answer
#     "This request caused apiserver to panic": the merge key was missing).
# Any failing kubectl call prints kubectl's own output.
# Usage: deploy_dry_run.sh LWS_BINARY REPO_ROOT
set -uo pipefail
lws="$1"
root="$2"
source "$root/tests/lib/apiserver.sh"
require_kubectl
deploy="$root/deploy"
tmp=$(mktemp -d)
trap 'stop_apiserver KILL; rm -rf "$tmp"' EXIT
start_apiserver "$lws" "$tmp" || exit 1

# kube ARGS...: runs kubectl; on failure prints the command and kubectl's output, returns 1.
kube() {
  if kubectl "$@" >"$tmp/out" 2>"$tmp/err"; then return 0; fi
  echo "---- kubectl $* failed:"; cat "$tmp/out" "$tmp/err"; echo "----"
  return 1
}
out_has() { grep -qE "$1" "$tmp/out" || { echo "---- expected /$1/ in:"; cat "$tmp/out"; return 1; }; }
jp() { kubectl get "$@" 2>/dev/null; }
have_python_yaml() { /usr/bin/python3 -c 'import yaml' 2>/dev/null; }

# The resource list of deploy/kustomization.yaml (its `- path` lines under `resources:`).
listed=$(awk '/^resources:/{r=1; next} r && /^- /{print $2; next} r && /^[^#-]/{r=0}' \
  "$deploy/kustomization.yaml")
# The manifests on disk: everything but the overlays, the chart, deploy/local/ and kustomize's own.
on_disk=$(cd "$deploy" && find . -name '*.yaml' -not -path './overlays/*' -not -path './helm/*' \
  -not -path './local/*' -not -name kustomization.yaml | sed 's|^\./||' | sort)
check "kustomization lists every manifest" test "$(sort <<<"$listed")" = "$on_disk"

# For real first: the CRD (already served by `lws apiserver`; this is an update) and the namespace.
check "CRD applied" kube apply --server-side --force-conflicts \
  -f "$deploy/crd/leaderworkerset.x-k8s.io_leaderworkersets.yaml"
check "CRD established" kube wait --for condition=established --timeout=30s \
  crd/leaderworkersets.leaderworkerset.x-k8s.io
check "namespace applied" kube apply -f "$deploy/namespace.yaml"

# Every manifest, one at a time, with the server's dry run (admission, defaults, validation).
for f in $listed; do
  case "$f" in namespace.yaml | crd/*) continue ;; esac
  check "dry-run: $f" sh -c "kubectl apply --dry-run=server -f '$deploy/$f' >'$tmp/out' 2>'$tmp/err' \
    && grep -q '(server dry run)' '$tmp/out' || { cat '$tmp/out' '$tmp/err'; exit 1; }"
done
check "dry-run stored nothing" test -z "$(jp deployment -n lws-system -o name)$(jp clusterrole lws-manager-role -o name)"
for f in "$deploy"/local/*.yaml; do
  check "dry-run: local/$(basename "$f")" kube apply --dry-run=server -f "$f"
done

if have_python_yaml; then
  # deploy/local/ = deploy/webhook/ with clientConfig.service -> url https://127.0.0.1:9443/<path>.
  check "local webhooks match deploy/webhook" /usr/bin/python3 - "$deploy" <<'EOF'
import sys, yaml
d = sys.argv[1]
def load(*files):
    return {doc["kind"]: doc for f in files for doc in yaml.safe_load_all(open(f)) if doc}
want = load(d + "/webhook/mutating.yaml", d + "/webhook/validating.yaml")
for doc in want.values():
    for w in doc["webhooks"]:
        w["clientConfig"] = {"url": "https://127.0.0.1:9443" + w["clientConfig"]["service"]["path"]}
have = load(d + "/local/webhooks.yaml")
if have != want:
    print("deploy/local/webhooks.yaml:\n", yaml.safe_dump(have), "\nexpected:\n", yaml.safe_dump(want))
    sys.exit(1)
EOF
fi

# The Helm chart with its default values, installed into another namespace.
if have_python_yaml; then
  check "helm chart renders" /usr/bin/python3 "$root/scripts/gen-helm-chart.py" render \
    "$deploy/helm/lws" lws-helm "$tmp/helm"
  check "helm namespace" sh -c "printf 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: lws-helm\n' | \
    kubectl apply -f - >/dev/null"
  check "helm chart dry-runs in lws-helm" kube apply --dry-run=server -R -f "$tmp/helm"
  check "helm objects in lws-helm" out_has '^deployment\.apps/lws-controller-manager created \(server dry run\)$'
fi

# For real, through kustomize, then read back what was stored.
check "apply -k deploy/" kube apply --server-side --force-conflicts -k "$deploy"
check "deployment stored" test "$(jp deploy/lws-controller-manager -n lws-system -o jsonpath='{.spec.replicas} {.spec.template.spec.securityContext.runAsUser} {.spec.template.spec.containers[0].command}')" \
  = '2 65532 ["/usr/local/bin/lws","controller","--config=/etc/lws/controller_manager_config.yaml"]'
check "cluster role is cluster-scoped" test "$(jp clusterrole lws-manager-role -o jsonpath='{.metadata.namespace}|{.metadata.name}')" = '|lws-manager-role'
check "binding names the service account" test \
  "$(jp clusterrolebinding lws-manager-rolebinding -o jsonpath='{.subjects[0].namespace}/{.subjects[0].name}')" \
  = lws-system/lws-controller-manager
check "leader election role namespaced" test \
  "$(jp role lws-leader-election-role -n lws-system -o jsonpath='{.rules[1].resources[0]}')" = leases
check "webhook paths" test \
  "$(jp validatingwebhookconfiguration lws-validating-webhook-configuration -o jsonpath='{range .webhooks[*]}{.name}={.clientConfig.service.path};{end}')" \
  = 'vleaderworkerset.kb.io=/validate-leaderworkerset-x-k8s-io-v1-leaderworkerset;vpod.kb.io=/validate--v1-pod;vdisaggregatedset.kb.io=/validate-disaggregatedset-x-k8s-io-v1-disaggregatedset;'
check "pod webhook object selector" test \
  "$(jp mutatingwebhookconfiguration lws-mutating-webhook-configuration -o jsonpath='{.webhooks[1].objectSelector.matchExpressions[0].key} {.webhooks[1].objectSelector.matchExpressions[0].operator} {.webhooks[1].failurePolicy} {.webhooks[1].sideEffects}')" \
  = 'leaderworkerset.sigs.k8s.io/name Exists Fail None'
check "webhook service" test \
  "$(jp service lws-webhook-service -n lws-system -o jsonpath='{.spec.ports[0].port}->{.spec.ports[0].targetPort}')" = '443->9443'
check "kubectl get lists the kinds" kube get deploy,clusterroles,rolebindings,validatingwebhookconfigurations -A
rv() { jp deploy/lws-controller-manager -n lws-system -o jsonpath='{.metadata.resourceVersion}'; }
before=$(rv)
check "re-apply" kube apply --server-side --force-conflicts -k "$deploy"
check "re-apply changed nothing" test "$(rv)" = "$before"

# The cert-manager component, from a kustomization outside deploy/ (as a user would write it).
mkdir -p "$tmp/cm"
rel=$(realpath --relative-to="$tmp/cm" "$deploy")
printf 'resources:\n- %s\ncomponents:\n- %s/overlays/cert-manager\n' "$rel" "$rel" >"$tmp/cm/kustomization.yaml"
if check "cert-manager component renders" kube kustomize "$tmp/cm" && have_python_yaml; then
  cp "$tmp/out" "$tmp/cm.yaml"
  check "cert-manager component content" /usr/bin/python3 - "$tmp/cm.yaml" "$tmp/cm-core.yaml" <<'EOF'
import sys, yaml
docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d]
by = {(d["kind"], d["metadata"]["name"]): d for d in docs}
errors = []
for kind in ("MutatingWebhookConfiguration", "ValidatingWebhookConfiguration"):
    name = "lws-%s-webhook-configuration" % kind[:-len("WebhookConfiguration")].lower()
    ann = by[(kind, name)]["metadata"].get("annotations", {})
    if ann.get("cert-manager.io/inject-ca-from") != "lws-system/lws-serving-cert":
        errors.append("%s: no inject-ca-from annotation" % kind)
config = yaml.safe_load(by[("ConfigMap", "lws-manager-config")]["data"]["controller_manager_config.yaml"])
if config["internalCertManagement"]["enable"] is not False:
    errors.append("internalCertManagement still enabled")
cert = [v for v in by[("Deployment", "lws-controller-manager")]["spec"]["template"]["spec"]["volumes"]
        if v["name"] == "cert"][0]
if cert != {"name": "cert", "secret": {"secretName": "lws-webhook-server-cert", "defaultMode": 420}}:
    errors.append("cert volume: %s" % cert)
if by[("Certificate", "lws-serving-cert")]["spec"]["secretName"] != "lws-webhook-server-cert":
    errors.append("Certificate does not write lws-webhook-server-cert")
print("\n".join(errors))
core = [d for d in docs if not d["apiVersion"].startswith("cert-manager.io/")]
yaml.safe_dump_all(core, open(sys.argv[2], "w"))
sys.exit(1 if errors else 0)
EOF
  check "cert-manager variant dry-runs" kube apply --dry-run=server -f "$tmp/cm-core.yaml"
fi

# Client-side apply twice: the second apply is a strategic merge patch over the webhooks list.
sed 's/failurePolicy: Fail/failurePolicy: Ignore/' "$deploy/local/webhooks.yaml" >"$tmp/local-ignore.yaml"
check "client-side apply of deploy/local" kube apply -f "$deploy/local/webhooks.yaml"
check "client-side re-apply merges webhooks by name" kube apply -f "$tmp/local-ignore.yaml"
check "re-applied policy stored" test \
  "$(jp mutatingwebhookconfiguration lws-mutating-webhook-configuration -o jsonpath='{range .webhooks[*]}{.name}={.failurePolicy};{end}')" \
  = 'mleaderworkerset.kb.io=Ignore;mpod.kb.io=Ignore;'

# Uninstall: the namespace goes Terminating first (its content still there for kubectl to delete,
# which once made `delete -k` exit 1 on NotFound), then the namespace controller empties it.
ns_gone() { ! kubectl get namespace lws-system >/dev/null 2>&1; }
check "delete -k deploy/" kube delete -k "$deploy" --wait=false
check "delete -k deleted the namespace and the deployment" \
  sh -c "grep -q '^namespace \"lws-system\" deleted$' '$tmp/out' && grep -q '^deployment.apps \"lws-controller-manager\" deleted$' '$tmp/out'"
check "lws-system is gone once emptied" eventually 20 ns_gone
check "its content went with it" test -z "$(kubectl get deploy,svc,cm -n lws-system -o name 2>/dev/null)"

[ "$failures" -eq 0 ] && echo "all checks passed" || echo "$failures check(s) failed"
exit $(( failures > 0 ))
