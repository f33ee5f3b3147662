"""The official Kubernetes Python client (Debian python3-kubernetes) against `lws apiserver`.

Usage: /usr/bin/python3 client_test.py KUBECONFIG
The server must run with a short watch history (--watch-history 50) so that a 410 can be forced.
"""
import sys
import unittest

from kubernetes import client, config, watch
from kubernetes.client.rest import ApiException

NS = "default"
LWS = ("leaderworkerset.x-k8s.io", "v1", NS, "leaderworkersets")


def config_map(name, labels=None, data=None):
    return {"apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": name, "labels": labels or {"app": "py"}},
            "data": data or {"a": "1"}}


def lws(name, replicas=2):
    return {"apiVersion": "leaderworkerset.x-k8s.io/v1", "kind": "LeaderWorkerSet",
            "metadata": {"name": name},
            "spec": {"replicas": replicas, "leaderWorkerTemplate": {
                "size": 2, "workerTemplate": {"spec": {"containers": [
                    {"name": "c", "image": "vllm:1"}]}}}}}


class ClientTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        config.load_kube_config(config_file=KUBECONFIG)
        cls.v1 = client.CoreV1Api()
        cls.apps = client.AppsV1Api()
        cls.custom = client.CustomObjectsApi()

    def test_create_list_patch_delete(self):
        created = self.v1.create_namespaced_config_map(NS, config_map("crud"))
        self.assertEqual(created.metadata.name, "crud")
        self.assertTrue(created.metadata.uid)
        listed = self.v1.list_namespaced_config_map(NS, label_selector="app=py")
        self.assertIn("crud", [c.metadata.name for c in listed.items])
        self.assertTrue(listed.metadata.resource_version)
        patched = self.v1.patch_namespaced_config_map("crud", NS, {"data": {"b": "2"}})
        self.assertEqual(patched.data, {"a": "1", "b": "2"})
        with self.assertRaises(ApiException) as conflict:
            self.v1.create_namespaced_config_map(NS, config_map("crud"))
        self.assertEqual(conflict.exception.status, 409)
        self.v1.delete_namespaced_config_map("crud", NS)
        with self.assertRaises(ApiException) as missing:
            self.v1.read_namespaced_config_map("crud", NS)
        self.assertEqual(missing.exception.status, 404)

    def test_custom_objects(self):
        created = self.custom.create_namespaced_custom_object(*LWS, lws("py-lws"))
        self.assertEqual(created["spec"]["startupPolicy"], "LeaderCreated")  # CRD default
        patched = self.custom.patch_namespaced_custom_object(
            *LWS, "py-lws", {"spec": {"replicas": 3}})
        self.assertEqual(patched["spec"]["replicas"], 3)
        scale = self.custom.get_namespaced_custom_object_scale(*LWS, "py-lws")
        self.assertEqual(scale["spec"]["replicas"], 3)
        items = self.custom.list_namespaced_custom_object(*LWS)["items"]
        self.assertIn("py-lws", [i["metadata"]["name"] for i in items])
        with self.assertRaises(ApiException) as invalid:
            self.custom.create_namespaced_custom_object(*LWS, lws("bad", replicas=-1))
        self.assertEqual(invalid.exception.status, 422)
        self.custom.delete_namespaced_custom_object(*LWS, "py-lws")

    def test_watch_with_resume(self):
        start = self.v1.list_namespaced_config_map(NS).metadata.resource_version
        self.v1.create_namespaced_config_map(NS, config_map("w1", labels={"app": "w"}))
        self.v1.patch_namespaced_config_map("w1", NS, {"data": {"a": "2"}})
        w = watch.Watch()
        seen = []
        for event in w.stream(self.v1.list_namespaced_config_map, NS, label_selector="app=w",
                              resource_version=start, timeout_seconds=10):
            seen.append((event["type"], event["object"].metadata.name))
            last = event["object"].metadata.resource_version
            if len(seen) == 2:
                w.stop()
        self.assertEqual(seen, [("ADDED", "w1"), ("MODIFIED", "w1")])
        # Resume from the last event seen: only what happened since.
        self.v1.delete_namespaced_config_map("w1", NS)
        w = watch.Watch()
        resumed = []
        for event in w.stream(self.v1.list_namespaced_config_map, NS, label_selector="app=w",
                              resource_version=last, timeout_seconds=10):
            resumed.append((event["type"], event["object"].metadata.name))
            w.stop()
        self.assertEqual(resumed, [("DELETED", "w1")])

    def test_gone_then_relist(self):
        self.v1.create_namespaced_config_map(NS, config_map("churn"))
        old = self.v1.list_namespaced_config_map(NS).metadata.resource_version
        for i in range(80):  # more changes than the server's watch history keeps
            self.v1.patch_namespaced_config_map("churn", NS, {"data": {"n": str(i)}})
        with self.assertRaises(ApiException) as gone:
            for _ in watch.Watch().stream(self.v1.list_namespaced_config_map, NS,
                                          resource_version=old, timeout_seconds=5):
                pass
        self.assertEqual(gone.exception.status, 410)
        # The informer's recovery: list again, then watch from the fresh resourceVersion.
        fresh = self.v1.list_namespaced_config_map(NS)
        self.assertIn("churn", [c.metadata.name for c in fresh.items])
        self.v1.patch_namespaced_config_map("churn", NS, {"data": {"n": "last"}})
        w = watch.Watch()
        for event in w.stream(self.v1.list_namespaced_config_map, NS,
                              resource_version=fresh.metadata.resource_version,
                              timeout_seconds=10):
            self.assertEqual(event["type"], "MODIFIED")
            self.assertEqual(event["object"].data["n"], "last")
            w.stop()

    def test_statefulset_typed_client(self):
        body = client.V1StatefulSet(
            metadata=client.V1ObjectMeta(name="py-sts"),
            spec=client.V1StatefulSetSpec(
                replicas=2, service_name="py-sts",
                selector=client.V1LabelSelector(match_labels={"app": "py-sts"}),
                template=client.V1PodTemplateSpec(
                    metadata=client.V1ObjectMeta(labels={"app": "py-sts"}),
                    spec=client.V1PodSpec(containers=[
                        client.V1Container(name="c", image="busybox:1")]))))
        created = self.apps.create_namespaced_stateful_set(NS, body)
        self.assertEqual(created.metadata.generation, 1)
        scaled = self.apps.patch_namespaced_stateful_set_scale(
            "py-sts", NS, {"spec": {"replicas": 4}})
        self.assertEqual(scaled.spec.replicas, 4)
        self.apps.delete_namespaced_stateful_set("py-sts", NS)


if __name__ == "__main__":
    KUBECONFIG = sys.argv.pop(1)
    unittest.main(verbosity=2)
