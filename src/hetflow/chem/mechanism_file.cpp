#include "hetflow/chem/mechanism_file.hpp"

#include "hetflow/chem/chemkin_reader.hpp"
#include "hetflow/chem/yaml_mechanism.hpp"
#include "hetflow/io/error.hpp"

namespace hetflow::chem {

Mechanism read_mechanism(const std::filesystem::path& file, const std::filesystem::path& thermo,
                         const std::string& phase) {
  const std::string ext = file.extension().string();
  if (ext == ".yaml" || ext == ".yml") return read_yaml_mechanism(file, phase);
  if (!phase.empty())
    throw io::FormatError(file.string() + ": phase " + phase +
                          ": a Chemkin mechanism has no phases (only Cantera YAML files do)");
  return read_chemkin(file, thermo);
}

}  // namespace hetflow::chem
