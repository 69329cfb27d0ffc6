# report.html in a real browser: headless Chromium renders the page of a
# CERTIFIED run and of a NOT CERTIFIED one (the example plugin's seeded bug);
# each screenshot must not be blank and must show its verdict banner's
# colour, and each DOM Chromium built must hold the verdict (and, for the
# failure, the highlighted words and the replay command). Chromium missing
# is a failure, not a skip (scripts/install-deps.sh installs it).
#   -DCLI=vyre-certify -DSEEDED_PLUGIN=plugin.so -DCHECK=vyre-screenshot-check -DOUT_DIR=dir
cmake_minimum_required(VERSION 3.25)
find_program(CHROMIUM NAMES chromium chromium-browser)
if(NOT CHROMIUM)
  message(FATAL_ERROR "chromium not found: install the Debian package `chromium` "
                      "(scripts/install-deps.sh does)")
endif()
file(REMOVE_RECURSE ${OUT_DIR})

# Runs the certifier; its exit code must be `want_rc`.
function(certify dir want_rc)
  execute_process(COMMAND ${CLI} ${ARGN} --out ${OUT_DIR}/${dir} --quiet
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
  if(NOT rc STREQUAL want_rc)
    message(FATAL_ERROR "${dir}: expected exit ${want_rc}, got ${rc}:\n${out}\n${err}")
  endif()
endfunction()

# Headless Chromium renders `dir`/report.html once: a screenshot into
# `dir`/shot.png and the DOM it built into `dom_var`. --no-sandbox: CI runs
# as root, where Chromium's sandbox refuses to start.
function(render dir dom_var)
  execute_process(COMMAND ${CHROMIUM} --headless --no-sandbox --disable-gpu --hide-scrollbars
                          --user-data-dir=${OUT_DIR}/${dir}/profile --window-size=1200,900
                          --screenshot=${OUT_DIR}/${dir}/shot.png --dump-dom
                          file://${OUT_DIR}/${dir}/report.html
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${dir}: chromium exited ${rc}:\n${err}")
  endif()
  set(${dom_var} "${out}" PARENT_SCOPE)
endfunction()

# The screenshot of `dir`'s page is a rendered page with the banner `colour`,
# and its DOM holds each of the remaining arguments.
function(check_page dir colour)
  render(${dir} dom)
  execute_process(COMMAND ${CHECK} ${OUT_DIR}/${dir}/shot.png --min-colours 8 --colour ${colour}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${dir}: the screenshot is missing, blank or unstyled:\n${out}${err}")
  endif()
  message(STATUS "${out}")
  foreach(want IN LISTS ARGN)
    string(FIND "${dom}" "${want}" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "${dir}: the rendered DOM lacks `${want}`:\n${dom}")
    endif()
  endforeach()
endfunction()

certify(certified 0 --backend reference --level L1 --filter L1/spec/binop/add --runs 2)
check_page(certified 1d7a32 "<h1>CERTIFIED at L1</h1>" "L1/spec/binop/add")

# The example plugin drops the grid's z axis: this case catches it.
certify(not_certified 1 --backend ${SEEDED_PLUGIN} --level L2
        --filter L2/exec/ids_on_three_axes --runs 1)
check_page(not_certified b3261e "<h1>NOT CERTIFIED at L2</h1>"
           "<h3>L2/exec/ids_on_three_axes: fail</h3>" "<td class=\"diff\">0x00030000</td>"
           "vyre-certify run repro/L2_exec_ids_on_three_axes.vyre --backend ${SEEDED_PLUGIN}")
