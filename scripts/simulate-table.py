#!/usr/bin/python3
"""The table of docs/simulate.md, made from `lws simulate` runs (never typed by hand).

The question: an LWS of 8 groups x 8 GPUs (a leader and a worker of 4 H100s each) on a pool of
8-GPU nodes, rolled to a new image. How do the rollout strategies compare when the pool has 0, 1
or 2 spare nodes, when it is in stockout (no node can be added) or not (the autoscaler adds
nodes after 5 minutes), and when other tenants take half of the GPUs the rollout lets go of
(10 s later) or nobody does?

For each of the 12 clusters it writes one scenario file with the 4 strategies, runs
`lws simulate -o json --seeds N`, and replaces the part of docs/simulate.md between the
BEGIN/END markers with the table (and the commands that made it).

Usage: scripts/simulate-table.py [--lws build/src/cmd/lws] [--seeds 100] [--jobs 0] [--check]
  --check  make the table with the given seeds and compare with docs/simulate.md (no write)
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC = os.path.join(ROOT, "docs", "simulate.md")
BEGIN = "<!-- BEGIN simulate-table (scripts/simulate-table.py) -->"
END = "<!-- END simulate-table -->"

STRATEGIES = [("mu1-ms0", 1, 0), ("mu0-ms1", 0, 1), ("mu1-ms1", 1, 1), ("mu2-ms2", 2, 2)]


def scenario(spare, stockout, tenants):
    changes = "  capacityChanges: [{at: 0s, stockout: h100, for: 24h}]\n" if stockout else ""
    others = ("  otherTenants: {takeFreed: {resource: nvidia.com/gpu, probability: 0.5, delay: 10s}}\n"
              if tenants else "")
    strategies = "".join(
        "- {name: %s, rolloutStrategy: {rollingUpdateConfiguration: {maxUnavailable: %d, maxSurge: %d}}}\n"
        % s for s in STRATEGIES)
    return f"""apiVersion: lws-cpp.dev/v1alpha1
kind: Scenario
metadata: {{name: spare{spare}-{'stockout' if stockout else 'autoscale'}-{'tenants' if tenants else 'alone'}}}
cluster:
  nodePools:
  - name: h100
    nodes: {8 + spare}
    maxNodes: {12 + spare}
    allocatable: {{cpu: "192", memory: 2Ti, nvidia.com/gpu: "8", pods: "110"}}
    provisioningDelay: 5m
    startup: {{distribution: lognormal, median: 90s, sigma: 0.3}}
    termination: 20s
{changes}{others}workloads:
- object:
    apiVersion: leaderworkerset.x-k8s.io/v1
    kind: LeaderWorkerSet
    metadata: {{name: llama}}
    spec:
      replicas: 8
      leaderWorkerTemplate:
        size: 2
        workerTemplate:
          spec:
            containers:
            - name: vllm
              image: vllm/vllm-openai:v0.6.0
              resources: {{limits: {{nvidia.com/gpu: "4"}}}}
timeline:
- {{at: 10m, lws: llama, image: vllm/vllm-openai:v0.7.0}}
strategies:
{strategies}limits: {{horizon: 2h, stall: 5m}}
"""


def minutes(seconds):
    return "%.1f" % (seconds / 60)


def run(lws, seeds, jobs, spare, stockout, tenants, tmp):
    path = os.path.join(tmp, "spare%d-%d-%d.yaml" % (spare, stockout, tenants))
    with open(path, "w") as f:
        f.write(scenario(spare, stockout, tenants))
    cmd = [lws, "simulate", path, "--seeds", str(seeds), "-o", "json", "--no-progress"]
    if jobs:
        cmd += ["--jobs", str(jobs)]
    out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if out.returncode not in (0, 3):  # 3: some run did not complete, which the table shows
        raise SystemExit("lws simulate failed (%d): %s" % (out.returncode, out.stderr))
    return json.loads(out.stdout)


def table(lws, seeds, jobs):
    rows = ["| spare nodes | stockout | other tenants | strategy (maxUnavailable/maxSurge) | completed | "
            "duration p50 / p95 (min) | min ready groups p50 / worst | group-hours lost p50 / p95 | "
            "peak GPUs p50 | surge GPU-hours p50 | nodes added p50 |",
            "|---|---|---|---|---|---|---|---|---|---|---|"]
    with tempfile.TemporaryDirectory() as tmp:
        for spare in (0, 1, 2):
            for stockout in (True, False):
                for tenants in (False, True):
                    report = run(lws, seeds, jobs, spare, stockout, tenants, tmp)
                    for s in report["strategies"]:
                        m = s["summary"]
                        rows.append("| %d | %s | %s | %s | %d%% | %s / %s | %d / %d | %.2f / %.2f | %d | %.2f | %d |" % (
                            spare, "yes" if stockout else "no", "take 50%" if tenants else "no",
                            s["name"].replace("mu", "").replace("-ms", "/"),
                            round(100 * m["completionRate"]),
                            minutes(m["durationSeconds"]["p50"]), minutes(m["durationSeconds"]["p95"]),
                            m["minReadyGroups"]["p50"], m["minReadyGroups"]["worst"],
                            m["groupHoursLost"]["p50"], m["groupHoursLost"]["p95"],
                            m["peakAccelerators"]["p50"], m["surgeAcceleratorHours"]["p50"],
                            m["nodesProvisioned"]["p50"]))
    made = ("Made by `scripts/simulate-table.py --seeds %d` (`lws simulate -o json --seeds %d` per "
            "cluster; a run not completed counts its 2 h horizon in the duration).\n\n" % (seeds, seeds))
    return made + "\n".join(rows) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lws", default=os.path.join(ROOT, "build", "src", "cmd", "lws"))
    parser.add_argument("--seeds", type=int, default=100)
    parser.add_argument("--jobs", type=int, default=0)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    text = table(args.lws, args.seeds, args.jobs)
    with open(DOC) as f:
        doc = f.read()
    if BEGIN not in doc or END not in doc:
        raise SystemExit("docs/simulate.md has no %s ... %s markers" % (BEGIN, END))
    head, rest = doc.split(BEGIN, 1)
    old, tail = rest.split(END, 1)
    if args.check:
        same = old.strip() == text.strip()
        print("ok   the table matches the runs" if same else "FAIL the table differs from the runs")
        return 0 if same else 1
    with open(DOC, "w") as f:
        f.write(head + BEGIN + "\n" + text + END + tail)
    return 0


if __name__ == "__main__":
    sys.exit(main())
