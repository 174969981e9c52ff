# lit configuration for the ompi-opt tests. Every path comes from
# lit.site.cfg.py, which CMake writes; no test names a binary by a path.
import os
import lit.formats

config.name = "ompi-opt"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".c", ".test"]
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py.in"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.ompi_obj_root, "test", "tool")

config.substitutions.append(("%ompi-opt", config.ompi_opt))
config.substitutions.append(("%mpich_cflags", config.mpich_cflags))
config.substitutions.append(("%openmpi_cflags", config.openmpi_cflags))
config.substitutions.append(("%smpi_cflags", config.smpi_cflags))
config.substitutions.append(("%python", config.python))
config.substitutions.append(("%clang", config.clang))
config.substitutions.append((r"\bFileCheck\b", config.filecheck))
config.substitutions.append(("%inputs", os.path.join(config.test_source_root, "Inputs")))
config.substitutions.append(("%runtime_include", os.path.join(config.ompi_src_root, "runtime", "include")))

config.environment["PATH"] = os.pathsep.join([config.llvm_tools_dir, config.environment.get("PATH", "")])
if config.mpich_cflags:
    config.available_features.add("mpich")
if config.openmpi_cflags:
    config.available_features.add("openmpi")
if config.smpi_cflags:
    config.available_features.add("smpi")

# Choices made on performance grounds must not depend on the machine the
# tests run on: no machine profile unless a test names one (%inputs has
# profiles made for the tests; %profiles holds the shipped ones).
config.environment["MPIOPT_PROFILE"] = "none"
config.substitutions.append(("%profiles", os.path.join(config.ompi_src_root, "profiles")))
config.substitutions.append(("%templates_include", os.path.join(config.ompi_src_root, "templates")))
