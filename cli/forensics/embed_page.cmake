# Embeds the run viewer's page (src/viewer_page.html) into a C++ source: the text before the line
# holding <!--FXKCC-DATA--> and the text after it, each as raw string literals of at most 8000
# bytes (MSVC takes no longer literal), joined at run time.
#   cmake -DIN=viewer_page.html -DOUT=viewer_page.cpp -P embed_page.cmake
file(READ "${IN}" page)
string(FIND "${page}" "<!--FXKCC-DATA-->" at)
if(at LESS 0)
  message(FATAL_ERROR "${IN}: no <!--FXKCC-DATA--> marker")
endif()
string(SUBSTRING "${page}" 0 ${at} head)
math(EXPR after "${at} + 17")
string(SUBSTRING "${page}" ${after} -1 tail)
string(FIND "${page}" ")FXKCC\"" bad)
if(NOT bad LESS 0)
  message(FATAL_ERROR "${IN}: holds the raw string's end )FXKCC\"")
endif()
function(_fx_chunks text out)
  set(body "")
  string(LENGTH "${text}" n)
  set(pos 0)
  while(pos LESS n)
    string(SUBSTRING "${text}" ${pos} 8000 piece)
    string(APPEND body "        R\"FXKCC(${piece})FXKCC\",\n")
    math(EXPR pos "${pos} + 8000")
  endwhile()
  set(${out} "${body}" PARENT_SCOPE)
endfunction()
_fx_chunks("${head}" head_chunks)
_fx_chunks("${tail}" tail_chunks)
set(src "// Generated from cli/forensics/src/viewer_page.html by cli/forensics/embed_page.cmake: do not edit.
#include <string>

#include \"forensics/viewer.h\"

namespace fx::harness {
namespace {
std::string join(const char* const* parts, size_t n) {
    std::string s;
    for (size_t i = 0; i < n; ++i)
        s += parts[i];
    return s;
}
} // namespace

std::string viewer_page_head() {
    static const char* const parts[] = {
${head_chunks}        \"\"};
    return join(parts, sizeof parts / sizeof parts[0]);
}

std::string viewer_page_tail() {
    static const char* const parts[] = {
${tail_chunks}        \"\"};
    return join(parts, sizeof parts / sizeof parts[0]);
}

} // namespace fx::harness
")
file(WRITE "${OUT}.tmp" "${src}")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUT}.tmp")
