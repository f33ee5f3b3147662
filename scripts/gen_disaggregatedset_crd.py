#!/usr/bin/env python3
"""Writes deploy/crd/disaggregatedset.x-k8s.io_disaggregatedsets.yaml.

Upstream generates this CRD with controller-gen from its Go types
(kubernetes-sigs/lws config/crd/bases, the version at 03e24b07: slices, placementPolicy,
External scaling, roleStatuses and conditions). A role's `spec` is a LeaderWorkerSetSpec with the
LWS CRD's own schema and defaults, so this script takes that part from our LWS CRD (the
~1.3 MB of pod template schema) and adds the DisaggregatedSet parts around it, as upstream's
generated file has them. status.observedGeneration is added: upstream's status writer sets it
(PR #980) and without it in the schema the API server would prune it.

Run it after the LWS CRD changes; api/disaggregatedset_crd_test.cc fails when the two disagree.
"""
import pathlib
import sys

import yaml

ROOT = pathlib.Path(__file__).resolve().parent.parent
LWS_CRD = ROOT / "deploy/crd/leaderworkerset.x-k8s.io_leaderworkersets.yaml"
OUT = ROOT / "deploy/crd/disaggregatedset.x-k8s.io_disaggregatedsets.yaml"

CEL_FILTER = "self.roles.filter(r, !has(r.scaling) || r.scaling.mode != 'External')"
CEL_RULE = (f"{CEL_FILTER}.all(r, !has(r.spec.replicas) || r.spec.replicas == 0) || "
            f"{CEL_FILTER}.all(r, has(r.spec.replicas) && r.spec.replicas > 0)")
CEL_MESSAGE = ("replicas must be zero for all non-External roles or non-zero for all "
               "non-External roles")

STRING_MAP = {"additionalProperties": {"type": "string"}, "type": "object"}
ROLE_METADATA = {
    "description": "metadata of the LWS created from this template.",
    "properties": {
        "annotations": STRING_MAP,
        "finalizers": {"items": {"type": "string"}, "type": "array"},
        "labels": STRING_MAP,
        "name": {"type": "string"},
        "namespace": {"type": "string"},
    },
    "type": "object",
}


def lws_spec_schema():
    crd = yaml.safe_load(LWS_CRD.read_text())
    for version in crd["spec"]["versions"]:
        if version["name"] == "v1":
            spec = version["schema"]["openAPIV3Schema"]["properties"]["spec"]
            spec["description"] = "spec defines the behavior of an LWS."
            return spec
    sys.exit(f"{LWS_CRD}: no v1 version")


def condition_schema():
    crd = yaml.safe_load(LWS_CRD.read_text())
    status = crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["status"]
    return status["properties"]["conditions"]["items"]


def role_schema():
    return {
        "description": (
            "DisaggregatedRoleSpec defines the configuration for a disaggregated role.\n"
            "This structure embeds LeaderWorkerSetTemplateSpec from sigs.k8s.io/lws, with "
            "validation\nto reject unsupported fields (RolloutStrategy.Type must be "
            "RollingUpdate,\nRolloutStrategy.RollingUpdateConfiguration.Partition must not be "
            "set)."),
        "properties": {
            "metadata": ROLE_METADATA,
            "name": {
                "description": "Name is the unique identifier for this role.",
                "maxLength": 63,
                "minLength": 1,
                "pattern": "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$",
                "type": "string",
            },
            "scaling": {
                "description": (
                    "Scaling configures how replicas are determined. Omit for inline Static\n"
                    "scaling (default). When set to External, the DisaggregatedSet controller\n"
                    "auto-creates a DisaggregatedSetRoleScaler and reads its spec.replicas."),
                "properties": {
                    "mode": {
                        "default": "Static",
                        "description": (
                            "Mode controls the source of the replica count. Static (default) "
                            "uses\ninline spec.replicas; External uses the auto-created scaler "
                            "CR."),
                        "enum": ["Static", "External"],
                        "type": "string",
                    }
                },
                "type": "object",
            },
            "spec": lws_spec_schema(),
        },
        "required": ["name"],
        "type": "object",
    }


def spec_schema():
    return {
        "description": "spec defines the desired state of DisaggregatedSet",
        "properties": {
            "placementPolicy": {
                "description": (
                    "PlacementPolicy controls how a slice's roles are co-located and how the\n"
                    "DisaggregatedSet's slices are spread across topology domains. When set, "
                    "the\ncontroller injects pod affinity and anti-affinity into the managed\n"
                    "LeaderWorkerSet pod templates. Placement is applied when a LeaderWorkerSet "
                    "is\ncreated, so changing it takes effect on the next rollout."),
                "properties": {
                    "topology": {
                        "description": (
                            "Topology is the node-label key that defines a domain, used as the "
                            "affinity\ntopologyKey. Required when Type is not None."),
                        "type": "string",
                    },
                    "type": {
                        "default": "None",
                        "description": "Type selects the placement guarantee. Defaults to None.",
                        "enum": ["None", "ExclusiveSlice", "ExclusiveTopology"],
                        "type": "string",
                    },
                },
                "type": "object",
            },
            "roles": {
                "description": ("Roles defines the list of roles (at least 2 required).\n"
                                "Each role has a unique name and its own configuration."),
                "items": role_schema(),
                "maxItems": 10,
                "minItems": 2,
                "type": "array",
                "x-kubernetes-list-map-keys": ["name"],
                "x-kubernetes-list-type": "map",
            },
            "slices": {
                "default": 1,
                "description": (
                    "Slices is the number of independent copies of the whole role topology.\n"
                    "Each slice is a complete set of all roles that rolls out independently.\n"
                    "Changing Slices scales copies up or down and does not trigger a rollout."),
                "format": "int32",
                "maximum": 100,
                "minimum": 1,
                "type": "integer",
            },
        },
        "required": ["roles"],
        "type": "object",
        "x-kubernetes-validations": [{"message": CEL_MESSAGE, "rule": CEL_RULE}],
    }


def status_schema():
    int32 = lambda text: {"description": text, "format": "int32", "type": "integer"}
    return {
        "description": "status defines the observed state of DisaggregatedSet",
        "properties": {
            "conditions": {
                "description": (
                    "conditions represent the current state of the DisaggregatedSet resource.\n"
                    "Each condition has a unique type and reflects the status of a specific "
                    "aspect of the resource.\n\nStandard condition types include:\n"
                    "- \"Available\": the resource is fully functional\n"
                    "- \"Progressing\": the resource is being created or updated\n"
                    "- \"Degraded\": the resource failed to reach or maintain its desired state"
                    "\n\nThe status of each condition is one of True, False, or Unknown."),
                "items": condition_schema(),
                "type": "array",
                "x-kubernetes-list-map-keys": ["type"],
                "x-kubernetes-list-type": "map",
            },
            "observedGeneration": {
                "description": ("ObservedGeneration is the most recent generation observed by "
                                "the controller."),
                "format": "int64",
                "type": "integer",
            },
            "roleStatuses": {
                "description": ("RoleStatuses contains the status for each role.\n"
                                "The order matches spec.roles."),
                "items": {
                    "description": "RoleStatus defines the observed state of a single role.",
                    "properties": {
                        "name": {
                            "description": ("Name is the name of the role (matches "
                                            "spec.roles[].name)."),
                            "type": "string",
                        },
                        "readyReplicas": int32(
                            "ReadyReplicas is the number of ready replicas for this role."),
                        "replicas": int32(
                            "Replicas is the total number of replicas for this role."),
                        "updatedReplicas": int32(
                            "UpdatedReplicas is the number of replicas updated to the latest "
                            "revision."),
                    },
                    "required": ["name"],
                    "type": "object",
                },
                "type": "array",
                "x-kubernetes-list-map-keys": ["name"],
                "x-kubernetes-list-type": "map",
            },
        },
        "type": "object",
    }


def crd():
    meta_doc = lambda text: {"description": text, "type": "string"}
    return {
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {
            "annotations": {"controller-gen.kubebuilder.io/version": "v0.17.2"},
            "name": "disaggregatedsets.disaggregatedset.x-k8s.io",
        },
        "spec": {
            "group": "disaggregatedset.x-k8s.io",
            "names": {
                "kind": "DisaggregatedSet",
                "listKind": "DisaggregatedSetList",
                "plural": "disaggregatedsets",
                "singular": "disaggregatedset",
            },
            "scope": "Namespaced",
            "versions": [{
                "name": "v1",
                "schema": {
                    "openAPIV3Schema": {
                        "description": ("DisaggregatedSet is the Schema for the "
                                        "disaggregatedsets API"),
                        "properties": {
                            "apiVersion": meta_doc(
                                "APIVersion defines the versioned schema of this "
                                "representation of an object."),
                            "kind": meta_doc(
                                "Kind is a string value representing the REST resource this "
                                "object represents."),
                            "metadata": {"type": "object"},
                            "spec": spec_schema(),
                            "status": status_schema(),
                        },
                        "required": ["spec"],
                        "type": "object",
                    }
                },
                "served": True,
                "storage": True,
                "subresources": {"status": {}},
            }],
        },
    }


class Dumper(yaml.SafeDumper):
    pass


def _str(dumper, text):
    style = "|" if "\n" in text else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", text, style=style)


Dumper.add_representer(str, _str)

HEADER = """\
# DisaggregatedSet CRD (disaggregatedset.x-k8s.io/v1), as upstream kubernetes-sigs/lws generates it
# (config/crd/bases, Copyright The Kubernetes Authors, Apache License 2.0). Written by
# scripts/gen_disaggregatedset_crd.py from the LWS CRD next to it; do not edit by hand.
---
"""

if __name__ == "__main__":
    text = yaml.dump(crd(), Dumper=Dumper, sort_keys=False, width=100000)
    OUT.write_text(HEADER + text)
    print(f"wrote {OUT.relative_to(ROOT)} ({len(text)} bytes)")
