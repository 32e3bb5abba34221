# lit configuration for the amdgpu-lds-barriers test suites.
import os
import sys
import lit.formats

config.name = "amdgpu-lds-barriers"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mir", ".ll", ".hip", ".test"]
config.excludes = ["Unit", "Inputs", "CMakeLists.txt", "examples"]

config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, config.environment.get("PATH", "")])

# %llc runs the distro llc with the plugin loaded.
config.substitutions.append(
    ("%llc", os.path.join(config.llvm_tools_dir, "llc") + " -load=" + config.plugin +
     " -amdgpu-lds-barriers-self-check"))
config.substitutions.append(("%plugin", config.plugin))
# %debug_only_option registers -debug-only in an llc that lacks it; the
# plugin prints its stages (LLVM_DEBUG) when built with assertions.
config.substitutions.append(("%debug_only_option", config.debug_only_option))
if config.lds_asserts.upper() in ("ON", "1", "TRUE", "YES"):
    config.available_features.add("asserts")
# %lds_opcode_names prints the amdgcn opcode names (test/Patches).
config.substitutions.append(("%lds_opcode_names", config.opcode_names))
config.substitutions.append(("%python", sys.executable))
config.substitutions.append(("%path_to_llc", os.path.join(config.llvm_tools_dir, "llc")))
# %clang_hip compiles HIP device code with clang-22 and the plugin loaded.
config.substitutions.append(
    ("%clang_hip", os.path.join(config.llvm_tools_dir, "clang") +
     " -x hip --cuda-device-only -nogpulib -nogpuinc -O2 -S"
     " -Xclang -load -Xclang " + config.plugin +
     " -mllvm -amdgpu-lds-barriers-self-check"))
# %hip_compile runs utils/hip-compile.sh with this build's plugin.
config.substitutions.append(
    ("%hip_compile", "env BUILD_DIR=" +
     os.path.dirname(os.path.dirname(config.plugin)) + " bash " +
     os.path.join(config.test_source_root, "..", "utils", "hip-compile.sh") +
     " --pass-opt=-amdgpu-lds-barriers-self-check"))
# %libllvm_cxx and %libllvm_ld build a program against libLLVM
# (utils/bench/pass_entry.cpp).
import subprocess
_llvm_config = os.path.join(config.llvm_tools_dir, "llvm-config")
config.substitutions.append(
    ("%libllvm_cxx", "clang++ " + subprocess.run(
        [_llvm_config, "--cxxflags"], capture_output=True, text=True,
        check=True).stdout.strip()))
config.substitutions.append(
    ("%libllvm_ld", subprocess.run(
        [_llvm_config, "--ldflags"], capture_output=True, text=True,
        check=True).stdout.strip() + " -lLLVM -ldl"))
# %lds_root is the checkout, %lds_build the plugin's build directory.
config.substitutions.append(
    ("%lds_root", os.path.join(config.test_source_root, "..")))
config.substitutions.append(
    ("%lds_build", os.path.dirname(os.path.dirname(config.plugin))))
config.substitutions.append(
    ("%examples", os.path.join(config.test_source_root, "..", "utils", "examples")))
