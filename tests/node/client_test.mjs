// The official JavaScript client, @kubernetes/client-node 1.4.0, against `lws apiserver
// --tls-self-signed` (client-node sends no token over plain HTTP, so HTTPS is the only way in).
// Usage: node --test client_test.mjs, with KUBECONFIG set (tests/cli/apiserver_node.sh).
// The server must run with a short watch history (--watch-history 50) so that a 410 can be forced.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';

import * as k8s from '@kubernetes/client-node';

const namespace = 'default';
const lwsApi = {
  group: 'leaderworkerset.x-k8s.io', version: 'v1', namespace, plural: 'leaderworkersets',
};
const contentType = (strategy) => k8s.setHeaderOptions('Content-Type', strategy);
const mergePatch = contentType(k8s.PatchStrategy.MergePatch);
const strategicMergePatch = contentType(k8s.PatchStrategy.StrategicMergePatch);

let kc, core, apps, custom;

before(() => {
  kc = new k8s.KubeConfig();
  kc.loadFromFile(process.env.KUBECONFIG);
  core = kc.makeApiClient(k8s.CoreV1Api);
  apps = kc.makeApiClient(k8s.AppsV1Api);
  custom = kc.makeApiClient(k8s.CustomObjectsApi);
});

const configMap = (name, labels = { app: 'node' }) => ({
  apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels }, data: { a: '1' },
});

const pod = (name) => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, labels: { app: 'node' } },
  spec: { containers: [{ name: 'c', image: 'vllm/vllm-openai:v0.6.0' }] },
});

const leaderWorkerSet = (name, replicas = 2) => ({
  apiVersion: 'leaderworkerset.x-k8s.io/v1', kind: 'LeaderWorkerSet', metadata: { name },
  spec: {
    replicas,
    leaderWorkerTemplate: {
      size: 2, workerTemplate: { spec: { containers: [{ name: 'c', image: 'vllm:1' }] } },
    },
  },
});

// The ApiException a call rejects with; fails the test if the call succeeds or throws anything
// else.
async function apiError(promise) {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof k8s.ApiException, `not an ApiException: ${err}`);
    return err;
  }
  assert.fail('the call succeeded');
}

// The client hands the error body over as the text of the response; it must be a Status.
function statusOf(err) {
  return typeof err.body === 'string' ? JSON.parse(err.body) : err.body;
}

// Watches PATH with QUERY until COUNT events arrived (or 10 s passed), then stops.
async function watchEvents(path, query, count) {
  const events = [];
  let controller;
  const finished = new Promise((resolve, reject) => {
    const timer = setTimeout(() => resolve(), 10000);
    new k8s.Watch(kc).watch(path, query, (type, object) => {
      events.push([type, object.metadata?.name, object]);
      if (events.length === count) { clearTimeout(timer); resolve(); }
    }, (err) => {
      clearTimeout(timer);
      if (err && err.name !== 'AbortError') reject(err); else resolve();
    })
      .then((c) => { controller = c; });
  });
  await finished;
  controller?.abort();
  return events;
}

test('kubeconfig: the current cluster is the HTTPS server with its CA', () => {
  const cluster = kc.getCurrentCluster();
  assert.match(cluster.server, /^https:\/\/127\.0\.0\.1:\d+$/);
  assert.ok(cluster.caData, 'certificate-authority-data');
  assert.equal(kc.getCurrentUser().token?.length > 0, true);
});

test('ConfigMap: create, read, list, JSON patch, merge patch, delete', async () => {
  const created = await core.createNamespacedConfigMap({ namespace, body: configMap('crud') });
  assert.equal(created.metadata.name, 'crud');
  assert.ok(created.metadata.uid);
  const read = await core.readNamespacedConfigMap({ name: 'crud', namespace });
  assert.deepEqual(read.data, { a: '1' });
  const list = await core.listNamespacedConfigMap({ namespace, labelSelector: 'app=node' });
  assert.ok(list.metadata.resourceVersion);
  assert.deepEqual(list.items.map((c) => c.metadata.name), ['crud']);
  // The client's default patch type is a JSON patch (application/json-patch+json).
  const jsonPatched = await core.patchNamespacedConfigMap({
    name: 'crud', namespace, body: [{ op: 'add', path: '/data/b', value: '2' }],
  });
  assert.deepEqual(jsonPatched.data, { a: '1', b: '2' });
  const merged = await core.patchNamespacedConfigMap(
    { name: 'crud', namespace, body: { data: { a: null, c: '3' } } }, mergePatch);
  assert.deepEqual(merged.data, { b: '2', c: '3' });
  const conflict = await apiError(
    core.createNamespacedConfigMap({ namespace, body: configMap('crud') }));
  assert.equal(conflict.code, 409);
  await core.deleteNamespacedConfigMap({ name: 'crud', namespace });
  const gone = await core.listNamespacedConfigMap({ namespace, labelSelector: 'app=node' });
  assert.deepEqual(gone.items, []);
});

test('Pod: create, read, list, strategic merge patch, delete', async () => {
  const created = await core.createNamespacedPod({ namespace, body: pod('node-pod') });
  assert.equal(created.spec.containers[0].image, 'vllm/vllm-openai:v0.6.0');
  assert.equal(created.status.phase, 'Pending');
  const read = await core.readNamespacedPod({ name: 'node-pod', namespace });
  assert.equal(read.metadata.uid, created.metadata.uid);
  const list = await core.listNamespacedPod({ namespace, labelSelector: 'app=node' });
  assert.deepEqual(list.items.map((p) => p.metadata.name), ['node-pod']);
  // Containers merge by name: the image changes, the container stays the only one.
  const patched = await core.patchNamespacedPod({
    name: 'node-pod', namespace,
    body: { spec: { containers: [{ name: 'c', image: 'vllm/vllm-openai:v0.6.1' }] } },
  }, strategicMergePatch);
  assert.deepEqual(patched.spec.containers.map((c) => [c.name, c.image]),
    [['c', 'vllm/vllm-openai:v0.6.1']]);
  const deleted = await core.deleteNamespacedPod(
    { name: 'node-pod', namespace, gracePeriodSeconds: 0 });
  assert.equal(deleted.metadata.name, 'node-pod');
});

test('StatefulSet: create, read scale, patch scale, list, delete', async () => {
  const labels = { app: 'node-sts' };
  const created = await apps.createNamespacedStatefulSet({
    namespace,
    body: {
      metadata: { name: 'node-sts' },
      spec: {
        replicas: 2, serviceName: 'node-sts', selector: { matchLabels: labels },
        template: {
          metadata: { labels }, spec: { containers: [{ name: 'c', image: 'busybox:1' }] },
        },
      },
    },
  });
  assert.equal(created.metadata.generation, 1);
  assert.equal(created.spec.podManagementPolicy, 'OrderedReady');  // defaulted by the server
  const scale = await apps.readNamespacedStatefulSetScale({ name: 'node-sts', namespace });
  assert.equal(scale.spec.replicas, 2);
  const scaled = await apps.patchNamespacedStatefulSetScale(
    { name: 'node-sts', namespace, body: { spec: { replicas: 4 } } }, mergePatch);
  assert.equal(scaled.spec.replicas, 4);
  const list = await apps.listNamespacedStatefulSet({ namespace });
  const listed = list.items.find((s) => s.metadata.name === 'node-sts');
  assert.equal(listed.spec.replicas, 4);
  assert.equal(listed.metadata.generation, 2);
  await apps.deleteNamespacedStatefulSet({ name: 'node-sts', namespace });
});

test('LeaderWorkerSet: create, get, list, merge patch, schema errors', async () => {
  const created = await custom.createNamespacedCustomObject(
    { ...lwsApi, body: leaderWorkerSet('node-lws') });
  assert.equal(created.spec.startupPolicy, 'LeaderCreated');  // the CRD's default
  const got = await custom.getNamespacedCustomObject({ ...lwsApi, name: 'node-lws' });
  assert.equal(got.metadata.uid, created.metadata.uid);
  const list = await custom.listNamespacedCustomObject(lwsApi);
  assert.ok(list.items.some((i) => i.metadata.name === 'node-lws'));
  const patched = await custom.patchNamespacedCustomObject(
    { ...lwsApi, name: 'node-lws', body: { spec: { replicas: 3 } } }, mergePatch);
  assert.equal(patched.spec.replicas, 3);
  assert.equal(patched.metadata.generation, 2);
  const invalid = await apiError(
    custom.createNamespacedCustomObject({ ...lwsApi, body: leaderWorkerSet('bad', -1) }));
  assert.equal(invalid.code, 422);
  assert.equal(statusOf(invalid).reason, 'Invalid');
  await custom.deleteNamespacedCustomObject({ ...lwsApi, name: 'node-lws' });
});

test('Watch: ADDED, MODIFIED, DELETED, then resume from a resourceVersion', async () => {
  const path = `/api/v1/namespaces/${namespace}/configmaps`;
  const query = { labelSelector: 'app=watched' };
  const start = (await core.listNamespacedConfigMap({ namespace })).metadata.resourceVersion;
  await core.createNamespacedConfigMap({ namespace, body: configMap('w1', { app: 'watched' }) });
  await core.patchNamespacedConfigMap(
    { name: 'w1', namespace, body: { data: { a: '2' } } }, mergePatch);
  await core.deleteNamespacedConfigMap({ name: 'w1', namespace });
  const events = await watchEvents(path, { ...query, resourceVersion: start }, 3);
  assert.deepEqual(events.map(([type, name]) => [type, name]),
    [['ADDED', 'w1'], ['MODIFIED', 'w1'], ['DELETED', 'w1']]);
  assert.equal(events[1][2].data.a, '2');
  // Resume after the MODIFIED event: only what happened since.
  const modified = events[1][2].metadata.resourceVersion;
  const resumed = await watchEvents(path, { ...query, resourceVersion: modified }, 1);
  assert.deepEqual(resumed.map(([type, name]) => [type, name]), [['DELETED', 'w1']]);
});

test('Watch: a live watch sees a change made after it started', async () => {
  const path = `/api/v1/namespaces/${namespace}/configmaps`;
  const pending = watchEvents(path, { labelSelector: 'app=live' }, 1);
  await new Promise((resolve) => setTimeout(resolve, 300));
  await core.createNamespacedConfigMap({ namespace, body: configMap('live', { app: 'live' }) });
  const events = await pending;
  assert.deepEqual(events.map(([type, name]) => [type, name]), [['ADDED', 'live']]);
  await core.deleteNamespacedConfigMap({ name: 'live', namespace });
});

test('Watch: a resourceVersion older than the history gets a 410 Expired ERROR event', async () => {
  await core.createNamespacedConfigMap({ namespace, body: configMap('churn') });
  const old = (await core.listNamespacedConfigMap({ namespace })).metadata.resourceVersion;
  for (let i = 0; i < 80; i++) {  // more changes than the server's watch history keeps
    await core.patchNamespacedConfigMap(
      { name: 'churn', namespace, body: { data: { n: `${i}` } } }, mergePatch);
  }
  const path = `/api/v1/namespaces/${namespace}/configmaps`;
  const events = await watchEvents(path, { resourceVersion: old }, 1);
  assert.equal(events.length, 1);
  const [type, , status] = events[0];
  assert.equal(type, 'ERROR');
  assert.equal(status.code, 410);
  assert.equal(status.reason, 'Expired');
  await core.deleteNamespacedConfigMap({ name: 'churn', namespace });
});

test('errors: a 404 is an ApiException with the Status body', async () => {
  const missing = await apiError(core.readNamespacedConfigMap({ name: 'nosuch', namespace }));
  assert.equal(missing.code, 404);
  const status = statusOf(missing);
  assert.equal(status.kind, 'Status');
  assert.equal(status.status, 'Failure');
  assert.equal(status.reason, 'NotFound');
  assert.equal(status.message, 'configmaps "nosuch" not found');
  assert.deepEqual(status.details, { name: 'nosuch', kind: 'configmaps' });
  const noNamespace = await apiError(
    core.createNamespacedConfigMap({ namespace: 'nosuch', body: configMap('x') }));
  assert.equal(noNamespace.code, 404);
  assert.equal(statusOf(noNamespace).message, 'namespaces "nosuch" not found');
});
