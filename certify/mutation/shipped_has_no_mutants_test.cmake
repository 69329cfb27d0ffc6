# The shipped vyre-certify carries no trace of the seeded bugs: none of the
# catalogue's marker strings (the selection variable, mutated op patterns)
# is in it, while vyre-certify-mutants has them (so the check can fail).
#   -DSHIPPED=vyre-certify -DMUTANTS=vyre-certify-mutants
cmake_minimum_required(VERSION 3.25)
set(markers "VYRE_MUTANT|\\(\\$a & 0xFFFFu\\)|\\(\\$a \\^ 1u\\)")
file(STRINGS ${MUTANTS} in_mutants REGEX "${markers}")
if(NOT in_mutants)
  message(FATAL_ERROR "the markers are not in ${MUTANTS}: this check would prove nothing")
endif()
file(STRINGS ${SHIPPED} in_shipped REGEX "${markers}")
if(in_shipped)
  message(FATAL_ERROR "the shipped ${SHIPPED} contains seeded-bug code: ${in_shipped}")
endif()
