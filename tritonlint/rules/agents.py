"""Model repository agents: the ones Triton's containers ship."""

from __future__ import annotations

from collections.abc import Iterator

from tritonlint.diagnostics import Severity
from tritonlint.rules.base import rule
from tritonlint.rules.context import Finding, ModelContext

#: Repository agents that NVIDIA's tritonserver containers ship.
_SHIPPED_AGENTS = frozenset({"checksum"})


@rule(
    "TL856",
    "repository-agent-not-shipped",
    Severity.WARNING,
    summary="a model repository agent that Triton's containers do not ship",
    explanation="""
    Each agent in `model_repository_agents` must be installed on the server as
    `<repoagent-directory>/<name>/libtritonrepoagent_<name>.so`, or the model fails to load.
    Only the server can tell what is installed (run the smoke stage); this warns about any
    agent other than the `checksum` agent the containers ship.
    """,
    bad="""
    name: "resnet50"
    platform: "onnxruntime_onnx"
    model_repository_agents { agents [ {
      name: "decrypt"  # not in Triton's containers
    } ] }
    """,
    good="""
    name: "resnet50"
    platform: "onnxruntime_onnx"
    model_repository_agents { agents [ {
      name: "checksum"  # ships in Triton's containers
      parameters {
        key: "MD5:1/model.onnx"
        value: "d41d8cd98f00b204e9800998ecf8427e"  # md5sum 1/model.onnx
      }
    } ] }
    """,
    server_message=(
        "unable to find 'libtritonrepoagent_{name}.so' for repo agent '{name}', searched: {dir}"
    ),
)
def repository_agent_not_shipped(ctx: ModelContext) -> Iterator[Finding]:
    config = ctx.config
    if config is None:
        return
    for index, agent in enumerate(config.model_repository_agents.agents):
        if agent.name not in _SHIPPED_AGENTS:
            yield ctx.at(
                ("model_repository_agents", "agents", index, "name"),
                f"repository agent '{agent.name}' must be installed on the server as "
                f"libtritonrepoagent_{agent.name}.so; Triton's containers ship only 'checksum'",
            )
