#include "reference/spec_tables/spec_tables.h"

#include "reference/spec_tables/table_parts.h"

namespace vyre::reference {

std::vector<TestCase> spec_table_cases() {
  std::vector<TestCase> out = operator_cases();
  for (TestCase& c : cast_cases()) out.push_back(std::move(c));
  for (TestCase& c : literal_cases()) out.push_back(std::move(c));
  return out;
}

std::vector<TestCase> execution_model_cases() {
  std::vector<TestCase> out = execution_cases();
  for (TestCase& c : control_and_value_cases()) out.push_back(std::move(c));
  for (TestCase& c : order_cases()) out.push_back(std::move(c));
  for (TestCase& c : structural_cases()) out.push_back(std::move(c));
  for (TestCase& c : schedule_independent_cases()) out.push_back(std::move(c));
  return out;
}

}  // namespace vyre::reference
