# Each .mlir file here is a program with RUN lines: rlopt applies a schedule,
# FileCheck checks the transform-dialect script and the IR it emits, and
# mlir-opt-19 replays the script to the same IR.
import os

import lit.formats

config.name = "rlopt-transforms"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = lit_config.params.get("exec_root", "/tmp/rlopt-lit")
config.substitutions.append(("%rlopt", lit_config.params["rlopt"]))
llvm_bin = lit_config.params.get("llvm_bin", "/usr/lib/llvm-19/bin")
config.environment["PATH"] = os.pathsep.join(
    [llvm_bin, os.environ.get("PATH", "")])
