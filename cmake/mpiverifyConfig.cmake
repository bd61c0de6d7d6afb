# find_package(mpiverify): mpiverify's deadlock verification as ctest tests.
#
#   find_package(mpiverify REQUIRED)
#   mpiverify_add_test(NAME farm COMMAND ${MPIEXEC_EXECUTABLE} -np 4 $<TARGET_FILE:farm>)
#
# mpiverify_add_test(NAME name COMMAND launcher args... [OPTIONS verify options...]
#                    [TIME_LIMIT seconds] [TIMEOUT seconds] [OUTPUT dir])
# adds a test that runs `mpiverify verify [OPTIONS] -- COMMAND`: it passes when verify answers
# no deadlock on any path (exit 0), fails on a deadlock confirmed on the real MPI library (1)
# or an error, and is skipped when the answer is inconclusive (5: a limit, a rank that
# stopped; the report in OUTPUT says which). TIME_LIMIT (default 900) is verify's
# --time-limit, TIMEOUT (default TIME_LIMIT + 120) the test's, so that verify answers before
# ctest kills it (ctest's own default is 1500 s, less than verify's default of 3600). OUTPUT
# (default mpiverify-NAME in the current binary directory) holds the runs, report.html and
# report.sarif.
#
# Sets mpiverify_EXECUTABLE (found beside this file when installed, else on PATH; set it
# to choose another) and mpiverify_FOUND.

if(NOT mpiverify_EXECUTABLE)
  find_program(mpiverify_EXECUTABLE mpiverify
    HINTS "${CMAKE_CURRENT_LIST_DIR}/../../../bin")
endif()
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(mpiverify REQUIRED_VARS mpiverify_EXECUTABLE)

function(mpiverify_add_test)
  cmake_parse_arguments(MV "" "NAME;TIME_LIMIT;TIMEOUT;OUTPUT" "COMMAND;OPTIONS" ${ARGN})
  if(NOT MV_NAME OR NOT MV_COMMAND)
    message(FATAL_ERROR "mpiverify_add_test: NAME and COMMAND are required")
  endif()
  if(NOT MV_TIME_LIMIT)
    set(MV_TIME_LIMIT 900)
  endif()
  if(NOT MV_TIMEOUT)
    math(EXPR MV_TIMEOUT "${MV_TIME_LIMIT} + 120")
  endif()
  if(NOT MV_OUTPUT)
    set(MV_OUTPUT "${CMAKE_CURRENT_BINARY_DIR}/mpiverify-${MV_NAME}")
  endif()
  add_test(NAME ${MV_NAME}
    COMMAND ${mpiverify_EXECUTABLE} verify -o ${MV_OUTPUT} --time-limit ${MV_TIME_LIMIT}
            ${MV_OPTIONS} -- ${MV_COMMAND})
  set_tests_properties(${MV_NAME} PROPERTIES SKIP_RETURN_CODE 5 TIMEOUT ${MV_TIMEOUT})
endfunction()
