"""Which rules of deploy/rbac the operator needed, from the API server's audit log.

For each rule of the operator's Roles and ClusterRoles (deploy/rbac/*.yaml), the requests of the
operator's ServiceAccount that only this rule allows: a rule that alone allowed at least one
request the operator made in the run is needed (without it that request is 403, and the
operator fails at what it did). Rules that no request needed must be listed in NOT_NEEDED with the
reason, and a rule listed there that the run did need is an error too, so the list stays true.
Any request of the operator answered 403 fails the check: the manifests lack a permission.
The test's own probes with the ServiceAccount's token (kubectl, by user agent) are left out.

Usage: /usr/bin/python3 rbac_coverage.py AUDIT_LOG RBAC_DIR USERNAME
Prints one line a rule; exits 1 on any of the failures above.
"""
import glob
import json
import os
import sys

import yaml

# (role, index of the rule in it) -> why this end-to-end run does not exercise it.
NOT_NEEDED = {
    ("lws-manager-role", 2): "pods/finalizers: kube-apiserver's OwnerReferencesPermissionEnforcement needs it for blockOwnerDeletion; lws apiserver does not enforce that plugin",
    ("lws-manager-role", 3): "pods/status: the operator never writes pod status (upstream's marker grants it)",
    ("lws-manager-role", 8): "controllerrevisions/finalizers, statefulsets/finalizers: as pods/finalizers",
    ("lws-manager-role", 9): "controllerrevisions/status, statefulsets/status: the operator never writes them",
    ("lws-manager-role", 12): "disaggregatedsets/finalizers: as pods/finalizers (no finalizer is ever set)",
    ("lws-manager-role", 14): "leaderworkersets/finalizers: as pods/finalizers",
    ("lws-manager-role", 16): "volcano PodGroups: gang scheduling, which the e2e cluster does not run",
    ("lws-leader-election-role", 0): "configmaps: controller-runtime's old ConfigMap lock; leader election uses Leases",
    ("lws-leader-election-role", 2): "events in lws-system: the operator records no leader-election Event (controller-runtime does), and lws-manager-role's events rule allows its others there too",
    ("lws-metrics-auth-role", 0): "tokenreviews: only when something scrapes /metrics with a token",
    ("lws-metrics-auth-role", 1): "subjectaccessreviews: only when something scrapes /metrics with a token",
    ("lws-metrics-reader", 0): "a scraper's permission, bound to no one by deploy/",
}


def rules_of(rbac_dir):
    for path in sorted(glob.glob(os.path.join(rbac_dir, "*.yaml"))):
        with open(path) as f:
            for doc in yaml.safe_load_all(f):
                if doc and doc.get("kind") in ("Role", "ClusterRole"):
                    namespace = doc["metadata"].get("namespace", "")
                    for i, rule in enumerate(doc.get("rules") or []):
                        yield doc["metadata"]["name"], i, namespace, rule


def allows(rule, namespace, event):
    ref = event.get("objectRef")
    verb = event["verb"]
    if verb not in rule.get("verbs", []) and "*" not in rule.get("verbs", []):
        return False
    if ref is None:
        path = event["requestURI"].split("?")[0]
        return any(path == u or (u.endswith("*") and path.startswith(u[:-1]))
                   for u in rule.get("nonResourceURLs", []))
    if namespace and ref.get("namespace") != namespace:
        return False
    resource = ref["resource"] + ("/" + ref["subresource"] if ref.get("subresource") else "")
    return ref.get("apiGroup", "") in rule.get("apiGroups", []) and \
        resource in rule.get("resources", [])


def main(audit_log, rbac_dir, username):
    events = []
    with open(audit_log) as f:
        for line in f:
            event = json.loads(line)
            if event["user"]["username"] == username and \
                    not event.get("userAgent", "").startswith("kubectl/"):
                events.append(event)
    failed = False
    refused = [e for e in events if e["responseStatus"]["code"] == 403]
    for e in refused:
        print("REFUSED %s %s" % (e["verb"], e["requestURI"]))
        failed = True
    print("%d requests of %s, %d refused" % (len(events), username, len(refused)))
    rules = list(rules_of(rbac_dir))
    allowed = [e for e in events if e["responseStatus"]["code"] != 403]
    # For each request, the rules that allow it; a rule is needed when it alone allows one.
    sole = {}
    for e in allowed:
        by = [(role, i) for role, i, namespace, rule in rules if allows(rule, namespace, e)]
        if len(by) == 1:
            sole.setdefault(by[0], []).append(e)
    for role, i, namespace, rule in rules:
        needed = sole.get((role, i), [])
        what = "%s[%d] %s %s" % (role, i, ",".join(rule.get("resources", rule.get("nonResourceURLs", []))),
                                 ",".join(rule.get("verbs", [])))
        reason = NOT_NEEDED.get((role, i))
        if needed and reason is None:
            print("needed      %s: alone allowed %d requests, e.g. %s %s" %
                  (what, len(needed), needed[0]["verb"], needed[0]["requestURI"]))
        elif needed:
            print("LISTED BUT NEEDED %s: %s %s" % (what, needed[0]["verb"], needed[0]["requestURI"]))
            failed = True
        elif reason is not None:
            print("not needed  %s: %s" % (what, reason))
        else:
            print("UNNEEDED    %s: no request needed it; exercise it or say why in NOT_NEEDED" % what)
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:4]))
