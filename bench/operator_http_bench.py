#!/usr/bin/env python3
"""Reconcile throughput of `lws controller` over HTTP against the local cluster (issue 6).

Starts `lws up --no-controller` (HTTPS, bearer token) with a cluster sized for the run, installs
deploy/ and deploy/local/ with kubectl as tests/cli/operator_e2e.sh does, starts ONE `lws
controller` with the Deployment's command and the ConfigMap's file, then:
  1. creates a LeaderWorkerSet of G groups of S pods and times it until every group is ready and
     the LWS is Available (groups/s to Available);
  2. changes the image and times the rolling update until every group is updated and ready,
     Available, UpdateInProgress False (groups/s to rolled out).
Per phase it reports wall time, CPU seconds of the controller, of `lws up`, of this script and of
everything else on the machine, the load average, and the controller's VmRSS / VmHWM.
Not a test: wall times depend on the machine's load. Standard library and kubectl only.

  bench/operator_http_bench.py --lws build/src/cmd/lws --groups 1000 -- --kube-api-qps=1000
Everything after `--` (or each --controller-arg) is passed to `lws controller`.
Results and their reading: docs/performance.md, "Operator over HTTP (issue 6)".
"""
import argparse, base64, ctypes, http.client, json, os, re, shutil, signal, socket, ssl
import subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOKEN = "operator-http-bench-token"
IDENTITY = "bench"
LWS_PATH = "/apis/leaderworkerset.x-k8s.io/v1/namespaces/default/leaderworkersets"
CLK_TCK = os.sysconf("SC_CLK_TCK")
STARTED = []  # every child process, so that cleanup finds it whatever failed


class BenchError(Exception):
    pass


def die_with_parent():
    # Children get SIGKILL if this script dies without cleaning up (SIGKILL, OOM).
    ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


class Process:
    """A child process with its log, CPU time and memory from /proc."""

    def __init__(self, name, argv, log_dir):
        self.name, self.log = name, os.path.join(log_dir, name + ".log")
        with open(self.log, "wb") as log:
            self.popen = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT,
                                          stdin=subprocess.DEVNULL, start_new_session=True,
                                          preexec_fn=die_with_parent)
        STARTED.append(self)

    def check_alive(self):
        if self.popen.poll() is not None:
            raise BenchError(f"{self.name} exited with status {self.popen.returncode}; "
                             f"last lines of {self.log}:\n{self.tail()}")

    def tail(self, lines=30):
        with open(self.log, "rb") as f:
            return b"".join(f.readlines()[-lines:]).decode(errors="replace")

    def log_contains(self, text):
        with open(self.log, "rb") as f:
            return text.encode() in f.read()

    def cpu_seconds(self):
        with open(f"/proc/{self.popen.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLK_TCK  # utime, stime (fields 14, 15)

    def busiest_threads(self):
        """CPU seconds per thread id (a saturated thread bounds a process's throughput)."""
        seconds = {}
        for tid in os.listdir(f"/proc/{self.popen.pid}/task"):
            try:
                with open(f"/proc/{self.popen.pid}/task/{tid}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except FileNotFoundError:  # the thread ended meanwhile
                continue
            seconds[tid] = (int(fields[11]) + int(fields[12])) / CLK_TCK
        return seconds

    def memory_mib(self):
        values = {}
        with open(f"/proc/{self.popen.pid}/status") as f:
            for line in f:
                key, _, rest = line.partition(":")
                if key in ("VmRSS", "VmHWM"):
                    values[key] = int(rest.split()[0]) / 1024
        return values

    def stop(self):
        if self.popen.poll() is None:
            self.popen.send_signal(signal.SIGTERM)
            try:
                self.popen.wait(15)
            except subprocess.TimeoutExpired:
                self.popen.kill()
                self.popen.wait()


class Api:
    """Just enough of a Kubernetes REST client: JSON over one keep-alive HTTPS connection."""

    def __init__(self, server, token, cafile):
        self.host, self.port = re.match(r"https://([^:/]+):(\d+)", server).groups()
        self.token, self.context = token, ssl.create_default_context(cafile=cafile)
        self.conn = None

    def request(self, method, path, body=None, content_type="application/json"):
        for attempt in range(2):  # the server may have closed an idle connection
            if self.conn is None:
                self.conn = http.client.HTTPSConnection(self.host, int(self.port),
                                                        context=self.context, timeout=120)
            headers = {"Authorization": "Bearer " + self.token, "Accept": "application/json"}
            if body is not None:
                headers["Content-Type"] = content_type
            try:
                self.conn.request(method, path, json.dumps(body) if body is not None else None,
                                  headers)
                response = self.conn.getresponse()
                data = response.read()
            except (http.client.HTTPException, OSError):
                self.conn.close()
                self.conn = None
                if attempt:
                    raise
                continue
            if response.status >= 300:
                raise BenchError(f"{method} {path}: {response.status} {data[:500].decode()}")
            return json.loads(data)

    def get(self, path):
        return self.request("GET", path)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def kubectl(kubeconfig, *args):
    result = subprocess.run(["kubectl", "--kubeconfig", kubeconfig, *args], capture_output=True,
                            text=True, env={**os.environ, "HOME": os.path.dirname(kubeconfig)})
    if result.returncode != 0:
        raise BenchError(f"kubectl {' '.join(args)}: {result.stdout}{result.stderr}")
    return result.stdout


def wait_for(what, seconds, procs, condition, interval=0.2):
    deadline = time.monotonic() + seconds
    while True:
        for p in procs:
            p.check_alive()
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise BenchError(f"timed out after {seconds} s waiting for {what}")
        time.sleep(interval)


def write_cluster_file(path, pods):
    nodes = pods * 5 // 4 // 110 + 2  # 25 % headroom for pods still terminating in a rollout
    with open(path, "w") as f:
        f.write("apiVersion: lws-cpp.dev/v1alpha1\nkind: Cluster\nnodePools:\n"
                f"- name: bench\n  nodes: {nodes}\n"
                '  allocatable: {cpu: "64", memory: 512Gi, pods: "110"}\n'
                "  zones: [zone-a, zone-b]\n"
                "  startup: {distribution: fixed, value: 1s}\n  termination: 1s\n")
    return nodes


def start_cluster(args, tmp):
    cluster = args.cluster or os.path.join(tmp, "cluster.yaml")
    nodes = "from " + cluster if args.cluster else write_cluster_file(cluster,
                                                                      args.groups * args.size)
    argv = [args.lws, "up", "--no-controller", "--tls-self-signed", "--token", TOKEN,
            "--port", "0", "--kubeconfig-out", os.path.join(tmp, "kubeconfig"),
            "--config", cluster]
    if args.data_dir:
        argv += ["--data-dir", os.path.join(tmp, "data")]
    up = Process("up", argv, tmp)
    wait_for("lws up to serve", 60, [up], lambda: up.log_contains("a local cluster on"))
    return up, nodes


def install(kubeconfig, tmp, webhook_port):
    kubectl(kubeconfig, "apply", "--server-side", "-k", os.path.join(ROOT, "deploy"))
    # deploy/local/ with the webhooks on a port of our own: another operator on this machine
    # (the e2e test) shares 9443 through SO_REUSEPORT and would answer with the wrong CA.
    with open(os.path.join(ROOT, "deploy/local/webhooks.yaml")) as f:
        webhooks = f.read().replace("127.0.0.1:9443/", f"127.0.0.1:{webhook_port}/")
    path = os.path.join(tmp, "webhooks.yaml")
    with open(path, "w") as f:
        f.write(webhooks)
    kubectl(kubeconfig, "apply", "--server-side", "--force-conflicts", "-f", path)


def start_controller(args, api, tmp, server, ca_data, webhook_port, up):
    ns = "/api/v1/namespaces/lws-system"
    config = api.get(ns + "/configmaps/lws-manager-config")["data"]["controller_manager_config.yaml"]
    config = re.sub(r"certDir: .*", f"certDir: {tmp}/certs", config)
    config = re.sub(r"port: 9443", f"port: {webhook_port}", config)
    with open(os.path.join(tmp, "config.yaml"), "w") as f:
        f.write(config)
    deployment = api.get("/apis/apps/v1/namespaces/lws-system/deployments/lws-controller-manager")
    command = deployment["spec"]["template"]["spec"]["containers"][0]["command"]
    command = [f"--config={tmp}/config.yaml" if a.startswith("--config=") else a
               for a in command[1:]]  # command[0] is the image's binary
    kubeconfig = os.path.join(tmp, "sa.kubeconfig")
    with open(kubeconfig, "w") as f:  # what a pod's service account has: a token and the CA
        json.dump({"apiVersion": "v1", "kind": "Config", "current-context": "in-cluster",
                   "clusters": [{"name": "in-cluster", "cluster": {
                       "server": server, "certificate-authority-data": ca_data}}],
                   "users": [{"name": "lws-controller-manager", "user": {"token": TOKEN}}],
                   "contexts": [{"name": "in-cluster", "context": {
                       "cluster": "in-cluster", "user": "lws-controller-manager",
                       "namespace": "lws-system"}}]}, f)
    metrics_port = free_port()
    argv = [args.lws, *command, "--kubeconfig", kubeconfig, "--namespace", "lws-system",
            "--identity", IDENTITY, "--webhook-cert-san", "127.0.0.1",
            "--metrics-bind-address", f"127.0.0.1:{metrics_port}",
            "--health-probe-bind-address", f"127.0.0.1:{free_port()}", *args.controller_args]
    print("controller:", " ".join(argv[1:]), flush=True)
    controller = Process("controller", argv, tmp)
    procs = [up, controller]
    wait_for("the controller to serve its webhooks", 60, procs,
             lambda: controller.log_contains("serving 4 webhooks on"))
    lease = "/apis/coordination.k8s.io/v1/namespaces/lws-system/leases/b8b2488c.x-k8s.io"
    wait_for("the controller to take the Lease", 60, procs,
             lambda: api.get(lease).get("spec", {}).get("holderIdentity") == IDENTITY)
    for kind in ("mutating", "validating"):
        path = (f"/apis/admissionregistration.k8s.io/v1/{kind}webhookconfigurations/"
                f"lws-{kind}-webhook-configuration")
        wait_for(f"the CA in the {kind} webhooks", 60, procs,
                 lambda: api.get(path)["webhooks"][0]["clientConfig"].get("caBundle"))
    return controller, metrics_port


def lws_object(args):
    max_unavailable = args.max_unavailable
    if not max_unavailable.endswith("%"):
        max_unavailable = int(max_unavailable)
    return {"apiVersion": "leaderworkerset.x-k8s.io/v1", "kind": "LeaderWorkerSet",
            "metadata": {"name": "bench", "namespace": "default"},
            "spec": {"replicas": args.groups,
                     "rolloutStrategy": {"type": "RollingUpdate", "rollingUpdateConfiguration": {
                         "maxUnavailable": max_unavailable, "maxSurge": args.max_surge}},
                     "leaderWorkerTemplate": {"size": args.size, "workerTemplate": {"spec": {
                         "containers": [{"name": "app", "image": "example.com/bench:v1"}]}}}}}


def condition(status, kind):
    return next((c["status"] for c in status.get("conditions", []) if c["type"] == kind), None)


class Sampler:
    """CPU seconds per process and for the whole machine, and the load average, over a phase."""

    def __init__(self, procs):
        self.procs, self.loads = procs, []
        self.start = self.snapshot()

    @staticmethod
    def machine_busy_seconds():
        with open("/proc/stat") as f:
            ticks = [int(v) for v in f.readline().split()[1:]]
        return (sum(ticks[:8]) - ticks[3] - ticks[4]) / CLK_TCK  # all but idle and iowait

    def snapshot(self):
        times = os.times()
        return {"time": time.monotonic(), "machine": self.machine_busy_seconds(),
                "bench": times.user + times.system,
                **{p.name: p.cpu_seconds() for p in self.procs},
                **{p.name + " thread": p.busiest_threads() for p in self.procs}}

    def sample_load(self):
        self.loads.append(os.getloadavg()[0])

    def finish(self, name, groups):
        end = self.snapshot()
        cpu = {k: end[k] - self.start[k] for k in end if not k.endswith(" thread")}
        for p in self.procs:
            before, after = self.start[p.name + " thread"], end[p.name + " thread"]
            cpu[p.name + " thread"] = max(after[t] - before.get(t, 0) for t in after)
        cpu["other"] = cpu["machine"] - sum(cpu[p.name] for p in self.procs) - cpu["bench"]
        memory = {p.name: p.memory_mib() for p in self.procs}
        return {"phase": name, "wall": cpu["time"], "groups/s": groups / cpu["time"],
                "cpu": cpu, "load": (sum(self.loads) / max(len(self.loads), 1),
                                     max(self.loads, default=0)), "memory": memory}


def run_phase(name, args, api, procs, done, mutate):
    sampler = Sampler(procs)
    mutate()
    deadline = time.monotonic() + args.timeout
    next_report = time.monotonic() + 30
    while True:
        for p in procs:
            p.check_alive()
        status = api.get(LWS_PATH + "/bench").get("status", {})
        sampler.sample_load()
        if done(status):
            return sampler.finish(name, args.groups)
        if time.monotonic() > next_report:  # a sign of life on long runs
            next_report += 30
            print(f"  {name}: {time.monotonic() - sampler.start['time']:.0f} s, ready "
                  f"{status.get('readyReplicas', 0)}, updated {status.get('updatedReplicas', 0)}",
                  flush=True)
        if time.monotonic() > deadline:
            raise BenchError(f"{name}: not done after --timeout {args.timeout} s; last status: "
                             f"{json.dumps(status)}")
        time.sleep(args.poll)


def check_pods(api, args, image):
    pods = api.get("/api/v1/namespaces/default/pods?labelSelector="
                   "leaderworkerset.sigs.k8s.io/name%3Dbench")["items"]
    images = {c["image"] for p in pods for c in p["spec"]["containers"]}
    if len(pods) != args.groups * args.size or images != {image}:
        raise BenchError(f"expected {args.groups * args.size} pods of {image}, found "
                         f"{len(pods)} with images {sorted(images)}")


def reconcile_counts(metrics_port):
    # The metrics server's authentication accepts our token (TokenReview); its cert is its own.
    context = ssl.create_default_context()
    context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
    conn = http.client.HTTPSConnection("127.0.0.1", metrics_port, context=context, timeout=30)
    conn.request("GET", "/metrics", headers={"Authorization": "Bearer " + TOKEN})
    text = conn.getresponse().read().decode()
    return {m.group(1) + " " + m.group(2): int(float(m.group(3))) for m in re.finditer(
        r'^controller_runtime_reconcile_total\{controller="([^"]+)",result="([^"]+)"\} (\S+)',
        text, re.M) if float(m.group(3)) > 0}


def print_results(args, nodes, results, counts):
    print(f"\n{args.groups} groups x {args.size} pods, {nodes} nodes, maxUnavailable "
          f"{args.max_unavailable}, maxSurge {args.max_surge}, controller args: "
          f"{' '.join(args.controller_args) or '(none)'}\n")
    print("| phase | wall s | groups/s | controller CPU s (busiest thread) "
          "| lws up CPU s (busiest thread) | bench CPU s | other CPU s | load avg (mean / max) "
          "| controller RSS / HWM MiB | lws up RSS / HWM MiB |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in results:
        c, m = r["cpu"], r["memory"]
        print(f"| {r['phase']} | {r['wall']:.1f} | {r['groups/s']:.1f} "
              f"| {c['controller']:.1f} ({c['controller thread']:.1f}) "
              f"| {c['up']:.1f} ({c['up thread']:.1f}) | {c['bench']:.1f} | {c['other']:.1f} "
              f"| {r['load'][0]:.2f} / {r['load'][1]:.2f} "
              f"| {m['controller']['VmRSS']:.0f} / {m['controller']['VmHWM']:.0f} "
              f"| {m['up']['VmRSS']:.0f} / {m['up']['VmHWM']:.0f} |")
    print("\nreconciles (controller_runtime_reconcile_total):",
          ", ".join(f"{k}: {v}" for k, v in sorted(counts.items())) or "not available")


def bench(args, tmp):
    up, nodes = start_cluster(args, tmp)
    admin = os.path.join(tmp, "kubeconfig")
    server = kubectl(admin, "config", "view", "--raw", "-o",
                     "jsonpath={.clusters[0].cluster.server}")
    ca_data = kubectl(admin, "config", "view", "--raw", "-o",
                      "jsonpath={.clusters[0].cluster.certificate-authority-data}")
    cafile = os.path.join(tmp, "ca.crt")
    with open(cafile, "wb") as f:
        f.write(base64.b64decode(ca_data))
    api = Api(server, TOKEN, cafile)
    webhook_port = free_port()
    install(admin, tmp, webhook_port)
    controller, metrics_port = start_controller(args, api, tmp, server, ca_data, webhook_port, up)
    procs = [up, controller]
    G = args.groups
    image = "example.com/bench:v2"

    def available(s):
        return s.get("readyReplicas") == G and condition(s, "Available") == "True"
    results = [run_phase("create -> Available", args, api, procs, available,
                         lambda: api.request("POST", LWS_PATH, lws_object(args)))]
    print(f"Available after {results[0]['wall']:.1f} s", flush=True)

    started = []  # the status must first show the update, else the old status looks done

    def rolled_out(s):
        if condition(s, "UpdateInProgress") == "True" or s.get("updatedReplicas", G) < G:
            started.append(True)
        return (started and s.get("updatedReplicas") == G and available(s)
                and condition(s, "UpdateInProgress") != "True")
    patch = [{"op": "replace", "value": image,
              "path": "/spec/leaderWorkerTemplate/workerTemplate/spec/containers/0/image"}]
    results.append(run_phase("update -> rolled out", args, api, procs, rolled_out,
                             lambda: api.request("PATCH", LWS_PATH + "/bench", patch,
                                                 "application/json-patch+json")))
    check_pods(api, args, image)
    print_results(args, nodes, results, reconcile_counts(metrics_port))


def parse_args():
    argv = sys.argv[1:]
    extra = argv[argv.index("--") + 1:] if "--" in argv else []
    argv = argv[:argv.index("--")] if "--" in argv else argv
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--lws", required=True, help="the lws binary")
    p.add_argument("--groups", type=int, default=100)
    p.add_argument("--size", type=int, default=2, help="pods per group (leader included)")
    p.add_argument("--max-unavailable", default="10%")
    p.add_argument("--max-surge", type=int, default=0)
    p.add_argument("--timeout", type=float, default=1800, help="seconds per phase")
    p.add_argument("--poll", type=float, default=0.5, help="seconds between status reads")
    p.add_argument("--cluster", help="cluster file (default: generated for the run)")
    p.add_argument("--data-dir", action="store_true", help="durable store (SQLite) for lws up")
    p.add_argument("--keep", action="store_true", help="keep the temporary directory")
    p.add_argument("--controller-arg", action="append", default=[], dest="controller_args",
                   help="an extra `lws controller` argument (repeatable; or give them after --)")
    args = p.parse_args(argv)
    args.controller_args += extra
    args.lws = os.path.abspath(args.lws)
    return args


def interrupt(*_):
    raise KeyboardInterrupt


def main():
    args = parse_args()
    # Also when started in the background, where SIGINT is inherited as ignored.
    signal.signal(signal.SIGINT, interrupt)
    signal.signal(signal.SIGTERM, interrupt)
    tmp = tempfile.mkdtemp(prefix="operator-http-bench.")
    try:
        bench(args, tmp)
        return 0
    except BenchError as e:
        print(f"operator_http_bench: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("operator_http_bench: interrupted", file=sys.stderr)
        return 130
    finally:
        for p in reversed(STARTED):  # the controller first: it releases its Lease
            p.stop()
        if args.keep:
            print("kept", tmp, file=sys.stderr)
        else:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
