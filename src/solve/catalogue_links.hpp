#pragma once
// What every computation would otherwise look up by name, for each entry of the catalogue, found once per process:
// the entries it uses, and why it has none where a given is missing.

#include <solve/catalogue.hpp>

#include <string_view>
#include <vector>

namespace headcount::solve::detail {

/// The entries that entry `index` (of catalogue_entries(), a computation's slot of the entry) names in its formula or
/// axes, in the order of CatalogueEntry::uses; each entry's found on first use, then kept.
const std::vector<int>& entry_uses(int index);
/// Why a problem without the given `index` has no value for what needs it: "the problem gives no NAME", made once.
std::string_view entry_missing(int index);

} // namespace headcount::solve::detail
